// The dataflow engine on the Vulkan backend (lavapipe in CI): its results equal
// the reference backend's, and its level loop, recorded several levels a
// submission with the state on the device (backends/vulkan/dispatch_run.h),
// gives what the default loop, a dispatch a level, gives. What the loop
// costs is counted in submissions: a timing would depend on the machine.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/dataflow_programs.h"
#include "archetypes/dataflow/transfer_function.h"
#include "backends/backend_options.h"
#include "backends/level_loop.h"
#include "backends/vulkan/vulkan_backend.h"
#include "spec/ir/host_words.h"
#include "tests/dataflow_test_inputs.h"

namespace vyre::dataflow {
namespace {

using testing::chain;
using testing::chain_state;
using testing::kChain;

TEST(DataflowOnVulkan, TheEngineGivesTheReferencesFindingsAndLevels) {
  vulkan::VulkanBackend backend{BackendOptions{}};
  ASSERT_TRUE(backend.probe().unavailable.empty()) << backend.probe().unavailable;
  testing::expect_engine_matches_reference(backend);
}

TEST(DataflowOnVulkan, ALevelPastTheLoopBudgetEndsTheLoopAsTimeout) {
  BackendOptions options;
  options.loop_iteration_budget = testing::kSmallLoopBudget;
  vulkan::VulkanBackend backend(options);
  testing::expect_loop_past_budget_is_timeout(backend);
}

/// The level program (block_mask) compiled on a Vulkan backend, and the loop
/// of a 300-node chain with its submissions counted.
class VulkanLevelLoop : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(backend_.probe().unavailable.empty()) << backend_.probe().unavailable;
    CompileOutcome compiled = backend_.compile(level_program(*make_transfer("block_mask")));
    ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
    program_ = compiled.program;
    loop_.on_submission = [this] { ++submissions_; };
  }

  /// The loop on the backend's own dispatch_levels, and on the default (a
  /// dispatch a level), which must agree on every level's word and the state.
  void expect_the_defaults_result(const LevelLoop& loop, uint32_t device_submissions) {
    submissions_ = 0;
    const LevelLoopOutcome out = backend_.dispatch_levels(*program_, state_, grid_, loop);
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(submissions_, device_submissions);
    submissions_ = 0;
    const LevelLoopOutcome def = backend_.Backend::dispatch_levels(*program_, state_, grid_, loop);
    ASSERT_EQ(def.status, Status::Ok) << def.message;
    EXPECT_EQ(submissions_, def.changed_words.size());  // The default waits once a level.
    // The device loop may run levels past the first unchanged one; each left `changed` at 0.
    ASSERT_GE(out.changed_words.size(), def.changed_words.size());
    for (size_t level = 0; level < out.changed_words.size(); ++level) {
      EXPECT_EQ(out.changed_words[level],
                level < def.changed_words.size() ? def.changed_words[level] : 0u)
          << level;
    }
    EXPECT_EQ(out.state.size(), def.state.size());
    for (const auto& [name, bytes] : def.state) {
      ASSERT_TRUE(out.state.contains(name)) << name;
      EXPECT_EQ(to_words(out.state.at(name)), to_words(bytes)) << name;
    }
  }

  /// A fence timeout long enough that the loop's groups never shrink for the
  /// pace of a loaded machine (a quarter of it per group: next_level_group),
  /// so the submission counts below hold anywhere.
  static BackendOptions patient() {
    BackendOptions options;
    options.fence_timeout = std::chrono::minutes(10);
    return options;
  }

  vulkan::VulkanBackend backend_{patient()};
  std::shared_ptr<const CompiledProgram> program_;
  const BufferSet state_ = chain_state(kChain);
  const Grid grid_{{1, 1, 1}};
  LevelLoop loop_ = engine_level_loop(kChain);
  uint32_t submissions_ = 0;
};

TEST_F(VulkanLevelLoop, GroupsOfLevelsGiveTheDefaultsWordsAndStateInFewSubmissions) {
  // Levels 0..298 each reach one more node; level 299 reaches none. Groups of
  // 2, 4, 8, 16, then 32 levels up to max_levels: 13 submissions, 300 levels.
  expect_the_defaults_result(loop_, 13);
  const LevelLoopOutcome out = backend_.dispatch_levels(*program_, state_, grid_, loop_);
  ASSERT_EQ(out.changed_words.size(), size_t{kChain});
  for (size_t level = 0; level < out.changed_words.size(); ++level) {
    EXPECT_EQ(out.changed_words[level], level < kChain - 1 ? 1u : 0u) << level;
  }
  EXPECT_EQ(to_words(out.state.at(std::string(kFindingCount))), std::vector<uint32_t>{1});
  EXPECT_EQ(to_words(out.state.at(std::string(kFindings))),
            (std::vector<uint32_t>{0, kChain - 1, kChain - 1, 0}));
}

TEST_F(VulkanLevelLoop, ALoopThatEndsEarlyRunsItsLastGroupOutAndReportsItsZeros) {
  LevelLoop loop = loop_;
  loop.max_levels = 1000;  // The chain ends at level 299: in the group of levels 286-317.
  expect_the_defaults_result(loop, 13);
}

TEST_F(VulkanLevelLoop, ALoopOfAnotherShapeIsLeftToTheDefault) {
  // `visited` is written by every level but not an output: the default
  // resets it to the host's bytes each level, which a device loop would not.
  LevelLoop loop = loop_;
  std::erase(loop.outputs, std::string(kVisited));
  submissions_ = 0;
  const LevelLoopOutcome out = backend_.dispatch_levels(*program_, state_, grid_, loop);
  const LevelLoopOutcome def = backend_.Backend::dispatch_levels(*program_, state_, grid_, loop);
  ASSERT_EQ(out.status, def.status) << out.message;
  EXPECT_EQ(out.changed_words, def.changed_words);
  EXPECT_EQ(submissions_, 2 * def.changed_words.size());  // Both ran a dispatch a level.
}

TEST_F(VulkanLevelLoop, ALoopWhoseCurrentIsItsNextIsLeftToTheDefault) {
  // On the device that would be a copy of a buffer onto itself.
  LevelLoop loop = loop_;
  loop.current = loop.next;
  submissions_ = 0;
  const LevelLoopOutcome out = backend_.dispatch_levels(*program_, state_, grid_, loop);
  const LevelLoopOutcome def = backend_.Backend::dispatch_levels(*program_, state_, grid_, loop);
  ASSERT_EQ(out.status, def.status) << out.message;
  EXPECT_EQ(out.changed_words, def.changed_words);
  EXPECT_EQ(submissions_, 2 * def.changed_words.size());
}

}  // namespace
}  // namespace vyre::dataflow
