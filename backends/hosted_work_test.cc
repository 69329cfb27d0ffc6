// HostedWork in process: ids rise and are found until the work goes; the runs
// are made in order, none after a failed one or past the budget; prepare's
// failure makes none; Backend::run_hosted defaults to running here.
#include "backends/hosted_work.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "backends/backend_options.h"
#include "backends/level_loop.h"
#include "backends/reference_backend.h"
#include "spec/ir/host_words.h"

namespace vyre {
namespace {

/// Work whose run k (in the order runs are taken) answers `fail_at == k` as
/// DeviceLost and every other run Ok with its index as output, after `pause`.
std::unique_ptr<HostedWork> counting_work(std::atomic<uint32_t>& taken, uint32_t fail_at,
                                          std::chrono::milliseconds pause = {}) {
  return std::make_unique<HostedWork>("counting", [&taken, fail_at, pause](Backend&) {
    return HostedPrepared{Status::Ok, "", [&taken, fail_at, pause] {
                            const uint32_t k = taken++;
                            std::this_thread::sleep_for(pause);
                            if (k == fail_at) return HostedRun{Status::DeviceLost, "lost", {}};
                            return HostedRun{Status::Ok, "", {{"k", to_bytes({k})}}};
                          }};
  });
}

TEST(HostedWork, IdsRiseAndAWorkIsFoundUntilItGoes) {
  auto first = std::make_unique<HostedWork>("a", [](Backend&) { return HostedPrepared{}; });
  auto second = std::make_unique<HostedWork>("b", [](Backend&) { return HostedPrepared{}; });
  EXPECT_GT(second->id(), first->id());
  EXPECT_GE(last_hosted_work_id(), second->id());
  EXPECT_EQ(find_hosted_work(first->id()), first.get());
  EXPECT_EQ(find_hosted_work(second->id())->name(), "b");
  const uint64_t gone = first->id();
  first.reset();
  EXPECT_EQ(find_hosted_work(gone), nullptr);
  EXPECT_EQ(find_hosted_work(0), nullptr);
}

TEST(HostedWork, RunsComeBackInRunOrderAndStopAfterAFailedOne) {
  std::atomic<uint32_t> taken{0};
  auto work = counting_work(taken, 5);
  auto backend = make_reference_backend(BackendOptions{});
  const HostedRunsOutcome out = backend->run_hosted(*work, {.runs = 50});
  EXPECT_EQ(out.status, Status::Ok);
  ASSERT_EQ(out.prepare_status, Status::Ok);
  ASSERT_EQ(out.runs.size(), 50u);
  for (uint32_t k = 0; k < 5; ++k) {
    ASSERT_TRUE(out.runs[k]) << k;
    EXPECT_EQ(out.runs[k]->outputs.at("k"), to_bytes({k}));
  }
  ASSERT_TRUE(out.runs[5]);
  EXPECT_EQ(out.runs[5]->status, Status::DeviceLost);
  for (uint32_t k = 6; k < 50; ++k) EXPECT_FALSE(out.runs[k]) << k;
  EXPECT_EQ(taken, 6u);
}

TEST(HostedWork, NoRunStartsPastTheBudget) {
  std::atomic<uint32_t> taken{0};
  auto work = counting_work(taken, UINT32_MAX, std::chrono::milliseconds(20));
  auto backend = make_reference_backend(BackendOptions{});
  const HostedRunsOutcome out =
      work->run_here(*backend, {.runs = 1000, .budget = std::chrono::milliseconds(100)});
  ASSERT_EQ(out.prepare_status, Status::Ok);
  ASSERT_TRUE(out.runs[0]);
  EXPECT_FALSE(out.runs[999]);
  EXPECT_LT(taken, 1000u);
}

TEST(HostedWork, AFailedPrepareMakesNoRun) {
  bool ran = false;
  HostedWork work("rejected", [&ran](Backend&) {
    return HostedPrepared{Status::CompileError, "no", [&ran] {
                            ran = true;
                            return HostedRun{};
                          }};
  });
  auto backend = make_reference_backend(BackendOptions{});
  const HostedRunsOutcome out = work.run_here(*backend, {.runs = 3});
  EXPECT_EQ(out.prepare_status, Status::CompileError);
  EXPECT_EQ(out.prepare_message, "no");
  EXPECT_TRUE(out.runs.empty());
  EXPECT_FALSE(ran);
}

TEST(HostedWork, APrepareWithoutARunIsAnError) {
  HostedWork work("empty", [](Backend&) { return HostedPrepared{Status::Ok, "", {}}; });
  auto backend = make_reference_backend(BackendOptions{});
  const HostedRunsOutcome out = work.run_here(*backend, {.runs = 1});
  EXPECT_EQ(out.prepare_status, Status::Error);
  EXPECT_EQ(out.prepare_message, "hosted work `empty` prepared no run");
}

/// Answers each dispatch Ok with the device time its input's one word
/// names in microseconds (0: not measured).
class TimedBackend final : public Backend {
 public:
  std::string name() const override { return "timed"; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet& inputs, const Grid&) override {
    DispatchOutcome out{Status::Ok, "", {}, {}};
    const uint32_t us = word_at(inputs.at("us"), 0);
    if (us != 0) out.timing.device_ms = us / 1000.0;
    return out;
  }
};

/// Work whose every run dispatches once per entry of `device_us`.
HostedWork timed_work(std::vector<uint32_t> device_us) {
  return HostedWork("timed", [device_us](Backend& backend) {
    auto program = backend.compile(Program{}).program;
    return HostedPrepared{Status::Ok, "", [&backend, program, device_us] {
                            for (uint32_t us : device_us) {
                              (void)backend.dispatch(*program, {{"us", to_bytes({us})}}, Grid{});
                            }
                            return HostedRun{Status::Ok, "", {}};
                          }};
  });
}

TEST(HostedWork, TheDeviceTimeOfEveryDispatchIsSummed) {
  TimedBackend backend;
  const HostedRunsOutcome measured =
      timed_work({250, 500}).run_here(backend, {.runs = 4, .threads = 2});
  ASSERT_TRUE(measured.device_ms);
  EXPECT_NEAR(*measured.device_ms, 4 * 0.75, 1e-9);
  // One dispatch the device did not measure leaves the whole unmeasured.
  EXPECT_FALSE(timed_work({250, 0}).run_here(backend, {.runs = 2}).device_ms);
  // No dispatch, no device time (not 0).
  EXPECT_FALSE(timed_work({}).run_here(backend, {.runs = 2}).device_ms);
}

TEST(HostedWork, TheDeviceTimeOfALevelLoopIsSummed) {
  TimedBackend backend;
  HostedWork work("timed loop", [](Backend& backend) {
    auto program = backend.compile(Program{}).program;
    return HostedPrepared{Status::Ok, "", [&backend, program] {
                            LevelLoop loop;
                            loop.max_levels = 5;
                            loop.changed = "changed";
                            loop.level_buffer = "level";
                            loop.current = "current";
                            loop.next = "next";
                            const BufferSet state = {{"us", to_bytes({250})},
                                                     {"changed", to_bytes({0})},
                                                     {"level", to_bytes({0})},
                                                     {"current", to_bytes({0})},
                                                     {"next", to_bytes({0})}};
                            // `changed` stays 0: one level.
                            (void)backend.dispatch_levels(*program, state, Grid{}, loop);
                            return HostedRun{Status::Ok, "", {}};
                          }};
  });
  const HostedRunsOutcome measured = work.run_here(backend, {.runs = 3});
  ASSERT_TRUE(measured.device_ms);
  EXPECT_NEAR(*measured.device_ms, 3 * 0.25, 1e-9);
}

}  // namespace
}  // namespace vyre
