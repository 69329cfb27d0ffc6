// LockstepBackend: every run's step is made once all runs still going asked,
// in one batch per distinct (program, grid, inputs), and each run gets the
// bytes its own run of the batch produced.
#include "certify/run/lockstep_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

struct NoProgram final : CompiledProgram {};

/// Output "x" = input "x" + 1, except that the run listed in `odd_run` of
/// each batch adds 2 (a nondeterministic device, as dispatch_runs reports it).
class CountingBackend final : public Backend {
 public:
  std::string name() const override { return "counting"; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<NoProgram>()};
  }
  /// A run alone: one batch of one, recorded as such.
  DispatchOutcome dispatch(const CompiledProgram& p, const BufferSet& inputs,
                           const Grid& grid) override {
    BatchOutcome one = dispatch_runs(p, inputs, grid, BatchOptions{});
    return {one.status, one.message, one.first_outputs, {}};
  }
  BatchOutcome dispatch_runs(const CompiledProgram&, const BufferSet& inputs, const Grid&,
                             const BatchOptions& options) override {
    batches.push_back(options);
    const uint32_t x = to_words(inputs.at("x"))[0];
    BatchOutcome out;
    out.status = Status::Ok;
    out.first_outputs = {{"x", to_bytes({x + 1})}};
    out.dispatches = options.runs;
    if (odd_run && *odd_run < options.runs) {
      out.differing.push_back({*odd_run, {{"x", to_bytes({x + 2})}}});
      out.differing_runs = 1;
    }
    return out;
  }
  std::vector<BatchOptions> batches;
  std::optional<uint32_t> odd_run;
};

/// `steps` steps of x -> dispatch(x), from x = 0; the final x.
uint32_t run_steps(Backend& backend, const CompiledProgram& program, uint32_t steps) {
  uint32_t x = 0;
  for (uint32_t s = 0; s < steps; ++s) {
    DispatchOutcome out = backend.dispatch(program, {{"x", to_bytes({x})}}, Grid{});
    if (out.status != Status::Ok) return 0xFFFFFFFF;
    x = to_words(out.outputs.at("x"))[0];
  }
  return x;
}

/// Runs run_steps on `threads` threads through `lockstep`; steps[i] per thread.
std::vector<uint32_t> in_lockstep(LockstepBackend& lockstep, const std::vector<uint32_t>& steps) {
  const CompileOutcome compiled = lockstep.compile(Program{});
  std::vector<uint32_t> finals(steps.size());
  lockstep.begin(static_cast<uint32_t>(steps.size()));
  {
    std::vector<std::jthread> threads;
    for (size_t i = 0; i < steps.size(); ++i) {
      threads.emplace_back([&, i] {
        finals[i] = run_steps(lockstep, *compiled.program, steps[i]);
        lockstep.run_finished();
      });
    }
  }
  return finals;
}

TEST(LockstepBackend, EachStepOfAllRunsIsOneBatch) {
  CountingBackend real;
  LockstepBackend lockstep(real, 2, std::chrono::steady_clock::time_point::max());
  EXPECT_EQ(in_lockstep(lockstep, {3, 3, 3, 3, 3}), (std::vector<uint32_t>{3, 3, 3, 3, 3}));
  ASSERT_EQ(real.batches.size(), 3u);
  for (const BatchOptions& b : real.batches) {
    EXPECT_EQ(b.runs, 5u);
    EXPECT_EQ(b.submissions, 2u);
    EXPECT_EQ(b.reported_differing, 5u);
  }
}

TEST(LockstepBackend, RunsThatEndEarlyAreNotWaitedFor) {
  CountingBackend real;
  LockstepBackend lockstep(real, 4, std::chrono::steady_clock::time_point::max());
  EXPECT_EQ(in_lockstep(lockstep, {1, 4, 2}), (std::vector<uint32_t>{1, 4, 2}));
  // Steps 1..4 batch 3, 2, 1 and 1 runs.
  ASSERT_EQ(real.batches.size(), 4u);
  EXPECT_EQ(real.batches[0].runs, 3u);
  EXPECT_EQ(real.batches[1].runs, 2u);
  EXPECT_EQ(real.batches[2].runs, 1u);
  EXPECT_EQ(real.batches[3].runs, 1u);
}

TEST(LockstepBackend, ADivergedRunCarriesOnFromItsOwnBytesInABatchOfItsOwn) {
  CountingBackend real;
  real.odd_run = 1;  // In every batch of two or more runs, run 1 adds 2.
  LockstepBackend lockstep(real, 4, std::chrono::steady_clock::time_point::max());
  const std::vector<uint32_t> finals = in_lockstep(lockstep, {2, 2, 2});
  // Step 1: one batch of 3, the second run gets 2, the others 1. Step 2: the
  // two at 1 batch together (the second of them gets 3, the first 2); the
  // one at 2 is alone (3).
  std::vector<uint32_t> sorted = finals;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<uint32_t>{2, 3, 3}));
  ASSERT_EQ(real.batches.size(), 3u);
  EXPECT_EQ(real.batches[0].runs, 3u);
  EXPECT_EQ(real.batches[1].runs + real.batches[2].runs, 3u);
}

TEST(LockstepBackend, PastTheDeadlineStepsAreTimeoutsAndNothingIsDispatched) {
  CountingBackend real;
  LockstepBackend lockstep(real, 4, std::chrono::steady_clock::now() - std::chrono::seconds(1));
  EXPECT_EQ(in_lockstep(lockstep, {2, 2}), (std::vector<uint32_t>{0xFFFFFFFF, 0xFFFFFFFF}));
  EXPECT_TRUE(real.batches.empty());
}

}  // namespace
}  // namespace vyre::certify
