#include "certify/run/host_case_runner.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "certify/run/lockstep_backend.h"
#include "certify/run/run_judge.h"

namespace vyre::certify {
namespace {

using Clock = RunClock::Clock;

/// Runs of a host-driven case made in lockstep at once (threads, and the
/// runs of each step's batch); the rest wait for the next round.
constexpr uint32_t kLockstepRuns = 25;
/// Submissions each step's batch is spread over.
constexpr uint32_t kSubmissionsPerRound = 2;

/// A host-driven failure's verdict: the backend's own status (carried
/// through the engine), or Error where a failing part answered Ok.
Verdict host_verdict(Status status) {
  return status == Status::Ok ? Verdict::Error : verdict_of(status);
}

}  // namespace

// The engine owns its buffers and dispatch grids, so the case has one
// variant: the runs, each an execution of the whole engine.
void run_host_case(Backend& backend, const HostCase& h, const CaseExpectations& expectations,
                   const CaseRunOptions& o, CaseResult& r) {
  const Clock::time_point case_start = Clock::now();
  r.variants = 1;
  if (expectations.host_invalid) {
    const InvalidCase& invalid = *expectations.host_invalid;
    record_failure(r, Verdict::InvalidCase, invalid.message, invalid.variant, invalid.inputs,
                   invalid.expected, invalid.observed, std::nullopt, nullptr);
    return;
  }
  TestCase expectation;
  expectation.expected = *expectations.host_outputs;
  const BufferSet& expected = *expectation.expected;

  // The first run goes alone and shows how large the engine's steps are;
  // if small, the other runs go in rounds of kLockstepRuns threads whose
  // steps are batched (lockstep_backend.h), else one by one. The rounds, and
  // the batches' submissions, keep some runs in separate submissions.
  const Clock::time_point deadline =
      o.case_budget.count() > 0 ? case_start + o.case_budget : Clock::time_point::max();
  LockstepBackend lockstep(backend, kSubmissionsPerRound, deadline);
  auto prepare_start = Clock::now();
  HostPrepared prepared = h.prepare(lockstep);
  r.compile_us += RunClock::micros_since(prepare_start);
  if (prepared.status != Status::Ok || !prepared.run) {
    record_failure(r, host_verdict(prepared.status), "prepare: " + prepared.message, "prepare",
                   h.inputs, expected, {}, std::nullopt, nullptr);
    return;
  }
  RunJudge judge(expectation, expected);
  for (uint32_t first = 0; first < o.runs;) {
    if (Clock::now() > deadline) {
      record_failure(
          r, Verdict::Timeout,
          "the case ran past its budget of " + std::to_string(o.case_budget.count() / 1000) +
              " s (" + std::to_string(first) + " runs done)",
          "run=" + std::to_string(first + 1), h.inputs, expected, {}, std::nullopt, nullptr);
      return;
    }
    const uint32_t round =
        first == 0 || !lockstep.batches_steps() ? 1 : std::min(kLockstepRuns, o.runs - first);
    std::vector<HostObservation> observed(round);
    auto start = Clock::now();
    lockstep.begin(round);
    {
      std::vector<std::jthread> runs;
      for (uint32_t i = 0; i < round; ++i) {
        runs.emplace_back([&, i] {
          observed[i] = prepared.run();
          lockstep.run_finished();
        });
      }
    }
    r.backend_us += RunClock::micros_since(start);
    r.dispatches += round;
    for (uint32_t i = 0; i < round; ++i) {
      const std::string where = "run=" + std::to_string(first + i + 1);
      const HostObservation& out = observed[i];
      if (out.status != Status::Ok) {
        record_failure(r, host_verdict(out.status), out.message, where, h.inputs, expected, {},
                       std::nullopt, nullptr);
        return;
      }
      BufferSet shown;
      std::optional<std::string> diff = judge.judge(out.outputs, shown);
      r.distinct_outputs = std::max(r.distinct_outputs, judge.distinct_outputs());
      if (diff) {
        record_failure(r, Verdict::Fail, *diff, where, h.inputs, expected, shown, std::nullopt,
                       nullptr);
        return;
      }
    }
    first += round;
  }
  r.verdict = Verdict::Pass;
}

}  // namespace vyre::certify
