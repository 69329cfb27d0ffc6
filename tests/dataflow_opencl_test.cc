// The dataflow engine on the OpenCL backend (PoCL in CI): its results equal
// the reference backend's, level counts included, and the driver calls a
// level costs, counted through a wrapped OpenClApi (counting_api.h): a
// single dispatch() of the level program with only its level word and
// changed flag new, and the resident level loop (level_loop_run.h). Counts
// are deterministic; a timing would depend on the machine (on NVIDIA's
// driver every call costs microseconds, serialised over queues).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/dataflow_programs.h"
#include "archetypes/dataflow/transfer_function.h"
#include "backends/backend_options.h"
#include "backends/level_loop.h"
#include "backends/opencl/counting_api.h"
#include "backends/opencl/dispatch_run.h"
#include "backends/opencl/level_loop_run.h"
#include "backends/opencl/opencl_backend.h"
#include "backends/opencl/opencl_test_support.h"
#include "backends/registry/registry.h"
#include "spec/ir/host_words.h"
#include "tests/dataflow_test_inputs.h"

namespace vyre::dataflow {
namespace {

using opencl::testing::CallCounts;

using testing::chain;
using testing::chain_state;
using testing::kChain;
using testing::scrambled;

TEST(DataflowOnOpenCl, TheEngineGivesTheReferencesFindingsAndLevels) {
  auto opencl = make_backend("opencl");
  ASSERT_TRUE(opencl.ok()) << opencl.error().message;
  ASSERT_TRUE((*opencl)->probe().unavailable.empty()) << (*opencl)->probe().unavailable;
  testing::expect_engine_matches_reference(**opencl);
}

TEST(DataflowOnOpenCl, FourThreadsOnFourLanesEachGetTheReferencesResult) {
  BackendOptions options;
  options.dispatch_lanes = 4;  // As on a GPU: each thread's loop on a lane of its own.
  opencl::OpenClBackend backend(options);
  ASSERT_TRUE(backend.probe().unavailable.empty()) << backend.probe().unavailable;
  auto reference = make_backend("reference");
  ASSERT_TRUE(reference.ok());
  auto on_device = DataflowEngine::create(backend, *make_transfer("block_mask"));
  auto on_reference = DataflowEngine::create(**reference, *make_transfer("block_mask"));
  ASSERT_TRUE(on_device && on_reference);
  const std::vector<DataflowInput> inputs = {chain(kChain), scrambled(400, {0, 5}, UINT32_MAX),
                                             chain(77), scrambled(300, {9}, 6)};
  std::vector<EngineResult<DataflowResult>> expected;
  for (const DataflowInput& input : inputs) expected.push_back(on_reference->run(input));
  std::vector<std::optional<EngineResult<DataflowResult>>> observed(inputs.size());
  std::vector<std::thread> threads;
  for (size_t t = 0; t < inputs.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 5; ++run) {
        auto r = on_device->run(inputs[t]);
        if (!r || run == 4 || r->findings != expected[t]->findings) {
          observed[t] = std::move(r);
          return;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t t = 0; t < inputs.size(); ++t) {
    ASSERT_TRUE(expected[t].ok()) << t;
    ASSERT_TRUE(observed[t].has_value()) << t;
    ASSERT_TRUE(observed[t]->ok()) << t << ": " << observed[t]->error().message;
    EXPECT_EQ((*observed[t])->levels, expected[t]->levels) << t;
    EXPECT_EQ((*observed[t])->findings, expected[t]->findings) << t;
  }
}

TEST(DataflowOnOpenCl, ALevelPastTheLoopBudgetEndsTheLoopAsTimeout) {
  BackendOptions options;
  options.loop_iteration_budget = testing::kSmallLoopBudget;
  opencl::OpenClBackend backend(options);
  testing::expect_loop_past_budget_is_timeout(backend);
}

/// A queue on the first usable device whose calls are counted, its pool, and
/// the level program (block_mask) built on it.
class LevelCallCount : public opencl::testing::ProgramOnQueue {
 protected:
  void SetUp() override {
    open_queue();
    ASSERT_FALSE(HasFatalFailure());
    CallCounts::wrap(api_);
    build(level_program(*make_transfer("block_mask")));
  }
  const Grid grid_{{1, 1, 1}};
  // Long enough that the loop's groups never shrink for the pace of a loaded
  // machine (a quarter of it per group), so the counts below hold anywhere.
  const std::chrono::milliseconds timeout_{std::chrono::hours(1)};
};

TEST_F(LevelCallCount, ALoopOfAnotherShapeIsLeftToTheDefault) {
  const BufferSet state = chain_state(kChain);
  EXPECT_TRUE(opencl::level_loop_fits(lowered_.iface, state, dataflow::engine_level_loop(kChain)));
  LevelLoop changed_read_only = dataflow::engine_level_loop(kChain);
  changed_read_only.changed = kFrontier;  // Read-only in the program.
  changed_read_only.current = kChanged;
  EXPECT_FALSE(opencl::level_loop_fits(lowered_.iface, state, changed_read_only));
  LevelLoop one_buffer_twice = dataflow::engine_level_loop(kChain);
  one_buffer_twice.level_buffer = kChanged;
  EXPECT_FALSE(opencl::level_loop_fits(lowered_.iface, state, one_buffer_twice));
  LevelLoop no_such_word = dataflow::engine_level_loop(kChain);
  no_such_word.level_word = kEngineParamCount;
  EXPECT_FALSE(opencl::level_loop_fits(lowered_.iface, state, no_such_word));
  LevelLoop unknown = dataflow::engine_level_loop(kChain);
  unknown.outputs.push_back("no_such_buffer");
  EXPECT_FALSE(opencl::level_loop_fits(lowered_.iface, state, unknown));
  BufferSet uneven = state;
  uneven[std::string(kNextFrontier)].resize(uneven[std::string(kNextFrontier)].size() + 4);
  EXPECT_FALSE(
      opencl::level_loop_fits(lowered_.iface, uneven, dataflow::engine_level_loop(kChain)));
}

TEST_F(LevelCallCount, ADispatchWithOnlyItsLevelWordChangedSetsFewArgumentsAndWaitsOnce) {
  BufferSet state = chain_state(kChain);
  for (uint32_t level = 0; level < 3; ++level) {
    auto params = to_words(state[std::string(kParams)]);
    params[kLevel] = level;
    state[std::string(kParams)] = to_bytes(params);
    CallCounts::reset();
    const opencl::DispatchRequest request{*kernel_, lowered_.iface, state, grid_, timeout_};
    DispatchOutcome out =
        opencl::run_dispatch(api_, *queue_, *pool_, device_.capabilities.device_name, request);
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(to_words(out.outputs.at(std::string(kChanged)))[0], 1u);
    state[std::string(kVisited)] = out.outputs.at(std::string(kVisited));
    state[std::string(kFrontier)] = out.outputs.at(std::string(kNextFrontier));
  }
  // The third level: every buffer but params, changed and next_frontier is
  // held by a kept buffer; those three are filled (a word, zeros), so only
  // the readback maps (five outputs and the control word) remain, behind
  // one wait. Before: 9 maps (3 of them an upload with its own wait), 25
  // arguments, 3 events.
  RecordProperty("calls_per_level", static_cast<int>(CallCounts::enqueues()));
  EXPECT_LE(CallCounts::of("clEnqueueMapBuffer"), 6u);
  EXPECT_LE(CallCounts::of("clEnqueueFillBuffer"), 3u);
  EXPECT_EQ(CallCounts::of("clEnqueueNDRangeKernel"), 1u);
  EXPECT_LE(CallCounts::of("clSetKernelArg"), 6u);
  EXPECT_LE(CallCounts::of("clReleaseEvent"), 2u);  // The kernel's, the last map's.
  EXPECT_EQ(CallCounts::of("clCreateBuffer"), 0u);
}

TEST_F(LevelCallCount, ALevelOfTheResidentLoopIsTwoEnqueuesAndAGroupOneWait) {
  const BufferSet state = chain_state(kChain);
  LevelLoop loop = dataflow::engine_level_loop(kChain);
  uint32_t submissions = 0;
  loop.on_submission = [&] { ++submissions; };
  ASSERT_TRUE(opencl::level_loop_fits(lowered_.iface, state, loop));
  CallCounts::reset();
  const opencl::LevelLoopRequest request{*kernel_, lowered_.iface, state, grid_, loop, timeout_};
  const LevelLoopOutcome out =
      opencl::run_level_loop(api_, *queue_, *pool_, device_.capabilities.device_name, request);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  // Levels 0..298 each reach one more node; level 299 reaches none. Groups
  // of 2, 4, 8, 16, then 32 levels up to max_levels: 13 groups, 300 levels.
  ASSERT_EQ(out.changed_words.size(), 300u);
  for (size_t level = 0; level < out.changed_words.size(); ++level) {
    EXPECT_EQ(out.changed_words[level], level < kChain - 1 ? 1u : 0u) << level;
  }
  EXPECT_EQ(submissions, 13u);
  EXPECT_EQ(to_words(out.state.at(std::string(kFindingCount))), std::vector<uint32_t>{1});
  EXPECT_EQ(to_words(out.state.at(std::string(kFindings))),
            (std::vector<uint32_t>{0, kChain - 1, kChain - 1, 0}));
  EXPECT_EQ(out.state.at(std::string(kFrontier)), zero_words((kChain + 31) / 32));
  const uint64_t levels = out.changed_words.size();
  RecordProperty("enqueues", static_cast<int>(CallCounts::enqueues()));
  RecordProperty("kernel_arguments", static_cast<int>(CallCounts::of("clSetKernelArg")));
  // Per level: a fill of next (not level 0's) and the kernel; per group: the
  // table's map and unmap; per loop: the state's upload and readback.
  EXPECT_EQ(CallCounts::of("clEnqueueNDRangeKernel"), levels);
  EXPECT_EQ(CallCounts::of("clEnqueueFillBuffer"), levels - 1);
  EXPECT_LE(CallCounts::of("clEnqueueMapBuffer"), 13u + 26u);
  EXPECT_LE(CallCounts::enqueues(), 2 * levels + 2 * 13 + 2 * 26);
  // Per level: the level's params and changed slots, current and next.
  EXPECT_LE(CallCounts::of("clSetKernelArg"), 4 * levels + 26);
  // The table's slots, made once: 32 levels' params and changed words and
  // the control word.
  EXPECT_LE(CallCounts::of("clCreateSubBuffer"), 65u);
}

}  // namespace
}  // namespace vyre::dataflow
