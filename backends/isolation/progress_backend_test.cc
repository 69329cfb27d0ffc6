// ProgressBackend: a level loop goes through to the backend it wraps (so an
// isolated child runs a backend's own loop, not one dispatch a level), and
// each of the loop's waits says it began, as the caller's own hook does.
#include "backends/isolation/progress_backend.h"

#include <gtest/gtest.h>

#include <vector>

#include "backends/level_loop.h"
#include "spec/ir/host_words.h"

namespace vyre::isolation {
namespace {

/// Dispatches answer `changed` = 1 for the first `changing` levels, then 0;
/// dispatch_levels is the default's, counted.
class ChangingBackend final : public Backend {
 public:
  std::string name() const override { return "changing"; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    const uint32_t changed = dispatches++ < changing ? 1 : 0;
    return {Status::Ok, "", {{"changed", to_bytes({changed})}, {"next", to_bytes({0})}}, {}};
  }
  LevelLoopOutcome dispatch_levels(const CompiledProgram& program, const BufferSet& state,
                                   const Grid& grid, const LevelLoop& loop) override {
    ++loops;
    return Backend::dispatch_levels(program, state, grid, loop);
  }

  uint32_t changing = 2;
  uint32_t dispatches = 0;
  uint32_t loops = 0;
};

TEST(ProgressBackend, ALevelLoopReachesTheBackendAndEachWaitIsReported) {
  ChangingBackend inner;
  std::vector<uint64_t> started;
  ProgressBackend watched(inner, [&](uint64_t calls) { started.push_back(calls); });
  LevelLoop loop;
  loop.max_levels = 10;
  loop.changed = "changed";
  loop.level_buffer = "level";
  loop.current = "current";
  loop.next = "next";
  loop.outputs = {"changed", "next"};
  uint32_t own = 0;
  loop.on_submission = [&] { ++own; };
  const BufferSet state = {{"changed", to_bytes({0})},
                           {"level", to_bytes({0})},
                           {"current", to_bytes({0})},
                           {"next", to_bytes({0})}};
  const LevelLoopOutcome out =
      watched.dispatch_levels(*inner.compile({}).program, state, Grid{}, loop);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.changed_words, (std::vector<uint32_t>{1, 1, 0}));
  EXPECT_EQ(inner.loops, 1u);
  EXPECT_EQ(inner.dispatches, 3u);
  EXPECT_EQ(own, 3u);  // The caller's hook still runs, once a wait.
  // The loop's start, then each of its three waits.
  EXPECT_EQ(started, (std::vector<uint64_t>{1, 2, 3, 4}));
}

}  // namespace
}  // namespace vyre::isolation
