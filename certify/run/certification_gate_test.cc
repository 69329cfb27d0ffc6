// The run's gate behaviour against scripted backends: a case ending in an
// infrastructure status is retried once on a freshly opened backend (which
// the rest of the run keeps after a device loss; a crash's retries run on one
// of their own beside the lanes), wrong bytes are never retried, and cases left
// when the run's time budget is spent are Timeout, never skipped. Expected
// bytes are hand-written: the case adds one to each of four words.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "certify/run/certification_run.h"
#include "certify/run/plus_one_case_for_tests.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

/// A backend answering every dispatch with `answer`.
class ScriptedBackend final : public Backend {
 public:
  explicit ScriptedBackend(std::function<DispatchOutcome()> answer, uint32_t lanes = 1)
      : answer_(std::move(answer)), lanes_(lanes) {}
  std::string name() const override { return "scripted"; }
  uint32_t concurrent_dispatches() const override { return lanes_; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<const CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    return answer_();
  }

 private:
  std::function<DispatchOutcome()> answer_;
  uint32_t lanes_;
};

DispatchOutcome right() {
  return {Status::Ok, "", {{"out", to_bytes({2, 3, 4, 0})}}, {}};
}
DispatchOutcome wrong() {
  return {Status::Ok, "", {{"out", to_bytes({2, 3, 5, 0})}}, {}};
}
DispatchOutcome lost() {
  return {Status::DeviceLost, "scripted device loss", {}, {}};
}

/// Runs `ids` on `first`; each reopen gives a backend answering `fresh` and counts.
struct GateRun {
  std::vector<SuiteCase> cases;
  CertifyOptions options;
  int reopened = 0;

  GateRun(std::vector<std::string> ids, std::function<DispatchOutcome()> fresh,
          uint32_t fresh_lanes = 1) {
    for (const std::string& id : ids) cases.push_back(plus_one_case(id));
    options.level = Level::L1;
    options.runs = 2;
    options.progress = false;
    options.out_dir = testing::TempDir() + "certification_gate_test";
    options.reopen_backend = [this, fresh, fresh_lanes]() -> Result<std::unique_ptr<Backend>> {
      ++reopened;
      return std::unique_ptr<Backend>(std::make_unique<ScriptedBackend>(fresh, fresh_lanes));
    };
  }

  Report run(Backend& first) {
    std::vector<const SuiteCase*> chosen;
    for (const SuiteCase& c : cases) chosen.push_back(&c);
    return run_certification(first, {}, chosen, options);
  }
};

TEST(GateRetry, ADeviceLossIsRetriedOnAFreshBackendWhichTheRunKeeps) {
  ScriptedBackend first(lost);
  GateRun gate({"L1/test/a", "L1/test/b"}, right);
  const Report report = gate.run(first);
  ASSERT_EQ(report.cases.size(), 2u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::Pass) << report.cases[0].message;
  EXPECT_EQ(report.cases[0].retried, "device lost");
  EXPECT_NE(report.cases[0].message.find("retried once on a freshly opened backend"),
            std::string::npos)
      << report.cases[0].message;
  // The second case ran on the fresh backend: no loss, no retry.
  EXPECT_EQ(report.cases[1].verdict, Verdict::Pass) << report.cases[1].message;
  EXPECT_FALSE(report.cases[1].retried);
  EXPECT_EQ(gate.reopened, 1);
  EXPECT_TRUE(report.certified);
}

/// A backend compiling ahead whose every compile ends `crashed`, as when its
/// process died during another case's call while the compile was in flight.
class CrashedCompileBackend final : public Backend {
 public:
  std::string name() const override { return "crashed-compile"; }
  bool compiles_concurrently() const override { return true; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Crashed, "backend process crashed during another call", nullptr};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet&, const Grid&) override {
    return right();
  }
};

TEST(GateRetry, ACompileLostWithTheProcessIsCompiledAgainOnTheFreshBackend) {
  CrashedCompileBackend first;
  GateRun gate({"L1/test/a"}, right);
  const Report report = gate.run(first);
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::Pass) << report.cases[0].message;
  EXPECT_EQ(report.cases[0].retried, "crashed");
  EXPECT_EQ(gate.reopened, 1);
}

/// The files in `dir`/repro; none when the folder does not exist.
std::vector<std::string> repro_files(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/repro", ec)) {
    names.push_back(e.path().filename().string());
  }
  return names;
}

TEST(GateRetry, APassOnRetryLeavesNoRepro) {
  ScriptedBackend first(lost);
  GateRun gate({"L1/test/a"}, right);
  gate.options.out_dir = testing::TempDir() + "certification_gate_test_pass_on_retry";
  std::filesystem::remove_all(gate.options.out_dir);
  const Report report = gate.run(first);
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::Pass) << report.cases[0].message;
  EXPECT_EQ(repro_files(gate.options.out_dir), std::vector<std::string>{});
  // Lost again on the fresh backend: the repro stays, named by the report.
  GateRun again({"L1/test/a"}, lost);
  again.options.out_dir = gate.options.out_dir;
  const Report failed = again.run(first);
  ASSERT_TRUE(failed.cases[0].failure.has_value());
  EXPECT_EQ(failed.cases[0].failure->repro, "repro/L1_test_a.vyre");
  EXPECT_EQ(repro_files(again.options.out_dir), std::vector<std::string>{"L1_test_a.vyre"});
}

/// Twelve case ids, L1/test/c0 .. c11.
std::vector<std::string> twelve_ids() {
  std::vector<std::string> ids;
  for (int i = 0; i < 12; ++i) ids.push_back("L1/test/c" + std::to_string(i));
  return ids;
}

TEST(GateLanes, CasesRunSideBySideOnABackendTakingConcurrentDispatchesAndReportInOrder) {
  std::atomic<int> in_flight{0};
  std::atomic<int> most{0};
  ScriptedBackend backend(
      [&] {
        const int now = ++in_flight;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        // Each dispatch waits until two have been in flight at once: lanes
        // that run side by side get there at once, however busy the
        // machine; lanes that run one at a time never do and the wait ends
        // at its (generous) deadline with `most` still 1.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (most.load() < 2 && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        --in_flight;
        return right();
      },
      4);
  GateRun gate(twelve_ids(), right);
  const auto start = std::chrono::steady_clock::now();
  const Report report = gate.run(backend);
  const auto wall_us = std::chrono::duration_cast<std::chrono::microseconds>(
                           std::chrono::steady_clock::now() - start)
                           .count();
  ASSERT_EQ(report.cases.size(), 12u);
  for (size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(report.cases[i].id, "L1/test/c" + std::to_string(i));
    EXPECT_EQ(report.cases[i].verdict, Verdict::Pass) << report.cases[i].message;
  }
  EXPECT_GE(most.load(), 2);
  EXPECT_LE(most.load(), 4);
  // The cases overlap, so their phases are shares of the time they took
  // together, never more than the run's wall time.
  uint64_t phases = 0;
  for (const auto& [phase, us] : report.phase_us) phases += us;
  EXPECT_LE(phases, static_cast<uint64_t>(wall_us));
  EXPECT_TRUE(report.certified);
}

TEST(GateLanes, LanesLosingTheDeviceTogetherOpenOneFreshBackend) {
  ScriptedBackend first(lost, 4);
  GateRun gate(twelve_ids(), right, 4);
  const Report report = gate.run(first);
  ASSERT_EQ(report.cases.size(), 12u);
  for (const CaseResult& c : report.cases) {
    EXPECT_EQ(c.verdict, Verdict::Pass) << c.id << ": " << c.message;
  }
  EXPECT_EQ(gate.reopened, 1);
  EXPECT_TRUE(report.certified);
}

TEST(GateRetry, ALossOnTheFreshBackendToo) {
  ScriptedBackend first(lost);
  GateRun gate({"L1/test/a"}, lost);
  const Report report = gate.run(first);
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::DeviceLost);
  EXPECT_EQ(report.cases[0].retried, "device lost");
  EXPECT_EQ(gate.reopened, 1);  // once, never more
  EXPECT_FALSE(report.certified);
}

/// One run of each case at L1 into `out_name`; every reopen counted in
/// `reopened` gives a backend made by `make`.
CertifyOptions one_run_options(const std::string& out_name, int& reopened,
                               std::function<std::unique_ptr<Backend>()> make) {
  CertifyOptions options;
  options.level = Level::L1;
  options.runs = 1;
  options.progress = false;
  options.out_dir = testing::TempDir() + out_name;
  options.reopen_backend = [&reopened, make]() -> Result<std::unique_ptr<Backend>> {
    ++reopened;
    return make();
  };
  return options;
}

/// A device that one program loses, taking down whatever else is in flight
/// on it: the culprit (input word 0 is 7) loses it every time; another case
/// waits a while for the culprit on the same backend, and loses the device
/// if the culprit came, else gives the right bytes.
class SharedLossBackend final : public Backend {
 public:
  std::string name() const override { return "shared-loss"; }
  uint32_t concurrent_dispatches() const override { return 2; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<const CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet& inputs, const Grid&) override {
    std::unique_lock lock(mutex_);
    if (to_words(inputs.at("in")).at(0) == 7) {
      lost_ = true;
      changed_.notify_all();
      return lost();
    }
    // Long enough for a culprit beside it to come; passing it is no error.
    changed_.wait_for(lock, std::chrono::seconds(5), [&] { return lost_; });
    return lost_ ? lost() : right();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool lost_ = false;
};

TEST(GateRetry, ACaseTakenDownByAnotherCasesDeviceLossPassesItsRetryAlone) {
  std::vector<SuiteCase> cases = {plus_one_case("L1/test/culprit"),
                                  plus_one_case("L1/test/bystander")};
  std::get<DispatchCase>(cases[0].body).test_case.inputs["in"] = to_bytes({7, 2, 3, 0xFFFFFFFF});
  int reopened = 0;
  const CertifyOptions options = one_run_options("certification_gate_test_bystander", reopened, [] {
    return std::make_unique<SharedLossBackend>();
  });
  SharedLossBackend first;
  const Report report = run_certification(first, {}, {&cases[0], &cases[1]}, options);
  ASSERT_EQ(report.cases.size(), 2u);
  // The culprit loses the device on its retry too; the bystander's retry
  // runs alone and passes. Run beside the culprit's retry, it lost again.
  EXPECT_EQ(report.cases[0].verdict, Verdict::DeviceLost) << report.cases[0].message;
  EXPECT_EQ(report.cases[1].verdict, Verdict::Pass) << report.cases[1].message;
  EXPECT_FALSE(report.certified);
}

/// A backend whose process one program crashes (input word 0 is 7), every
/// time. Opened as a crashed case's retry backend, its crashing call first
/// waits for three other cases' calls to end; the other cases' calls wait
/// until that retry has begun (so they cannot all end before it). Each wait
/// has a generous deadline: lanes that go on beside the retry get there at
/// once, however busy the machine; lanes that wait for it never do.
class CrashingProcessBackend final : public Backend {
 public:
  struct Shared {
    std::mutex mutex;
    std::condition_variable changed;
    int other_calls = 0;
    bool retry_began = false;
    bool retry_saw_lanes_go_on = false;
  };
  CrashingProcessBackend(Shared& shared, bool retry) : shared_(shared), retry_(retry) {}
  std::string name() const override { return "crashing-process"; }
  uint32_t concurrent_dispatches() const override { return 2; }
  Capabilities probe() override { return {}; }
  CompileOutcome compile(const Program&) override {
    return {Status::Ok, "", std::make_shared<const CompiledProgram>()};
  }
  DispatchOutcome dispatch(const CompiledProgram&, const BufferSet& inputs, const Grid&) override {
    std::unique_lock lock(shared_.mutex);
    if (to_words(inputs.at("in")).at(0) != 7) {
      shared_.changed.wait_for(lock, std::chrono::seconds(30), [&] { return shared_.retry_began; });
      ++shared_.other_calls;
      shared_.changed.notify_all();
      return right();
    }
    if (retry_) {
      shared_.retry_began = true;
      shared_.changed.notify_all();
      const int before = shared_.other_calls;
      shared_.retry_saw_lanes_go_on = shared_.changed.wait_for(
          lock, std::chrono::seconds(30), [&] { return shared_.other_calls >= before + 3; });
    }
    return {Status::Crashed, "backend process crashed (signal 11: SIGSEGV)", {}, {}};
  }

 private:
  Shared& shared_;
  const bool retry_;
};

TEST(GateRetry, ACrashedCaseIsRetriedInAProcessOfItsOwnWhileTheLanesGoOn) {
  std::vector<SuiteCase> cases = {plus_one_case("L1/test/culprit")};
  std::get<DispatchCase>(cases[0].body).test_case.inputs["in"] = to_bytes({7, 2, 3, 0xFFFFFFFF});
  for (int i = 0; i < 6; ++i) cases.push_back(plus_one_case("L1/test/c" + std::to_string(i)));
  CrashingProcessBackend::Shared shared;
  int reopened = 0;
  const CertifyOptions options =
      one_run_options("certification_gate_test_crash_retry", reopened,
                      [&shared] { return std::make_unique<CrashingProcessBackend>(shared, true); });
  CrashingProcessBackend first(shared, false);
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) chosen.push_back(&c);
  const Report report = run_certification(first, {}, chosen, options);
  ASSERT_EQ(report.cases.size(), 7u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::Crashed) << report.cases[0].message;
  EXPECT_EQ(report.cases[0].retried, "crashed");
  for (size_t i = 1; i < 7; ++i) {
    EXPECT_EQ(report.cases[i].verdict, Verdict::Pass) << report.cases[i].message;
    EXPECT_FALSE(report.cases[i].retried);
  }
  EXPECT_TRUE(shared.retry_saw_lanes_go_on);
  // One backend for the retry; the lanes stay on theirs, whose process
  // starts afresh by itself.
  EXPECT_EQ(reopened, 1);
  EXPECT_FALSE(report.certified);
}

TEST(GateRetry, WrongBytesAreNeverRetried) {
  ScriptedBackend first(wrong);
  GateRun gate({"L1/test/a"}, right);
  const Report report = gate.run(first);
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::Fail);
  EXPECT_FALSE(report.cases[0].retried);
  EXPECT_EQ(gate.reopened, 0);
}

TEST(GateTimeBudget, CasesLeftWhenItIsSpentAreTimeouts) {
  // Each dispatch takes 0.6 s, so the first case (2 runs) spends the 1 s
  // budget; the others never start.
  ScriptedBackend slow([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    return right();
  });
  GateRun gate({"L1/test/a", "L1/test/b", "L1/test/c"}, right);
  gate.options.time_budget = std::chrono::seconds(1);
  const Report report = gate.run(slow);
  ASSERT_EQ(report.cases.size(), 3u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::Pass) << report.cases[0].message;
  for (size_t i : {1, 2}) {
    EXPECT_EQ(report.cases[i].verdict, Verdict::Timeout);
    EXPECT_NE(report.cases[i].message.find("time budget"), std::string::npos)
        << report.cases[i].message;
    EXPECT_FALSE(report.cases[i].retried);
  }
  EXPECT_EQ(report.time_budget_s, 1u);
  EXPECT_FALSE(report.certified);
  EXPECT_EQ(gate.reopened, 0);
}

}  // namespace
}  // namespace vyre::certify
