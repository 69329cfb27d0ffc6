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

}  // namespace
}  // namespace vyre
