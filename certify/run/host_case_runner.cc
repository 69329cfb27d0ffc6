#include "certify/run/host_case_runner.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "certify/run/run_judge.h"
#include "spec/support/parallel_for.h"

namespace vyre::certify {
namespace {

using Clock = RunClock::Clock;

/// A host-driven failure's verdict: the backend's own status (carried
/// through the engine), or Error where a failing part answered Ok.
Verdict host_verdict(Status status) {
  return status == Status::Ok ? Verdict::Error : verdict_of(status);
}

/// One engine run as it ended, or that it never started (the case's budget
/// ran out first, or an earlier run failed).
struct HostRun {
  bool started = false;
  HostObservation observation;
};

/// Runs `prepared` `runs` times on up to `threads` threads, each taking the
/// next run in order; no run is taken after one that failed, or once
/// `budget` (0: none) has passed since `case_start`. Judged in run order,
/// the result reports what a serial loop would: every run before the first
/// unstarted one started. Each run stays its own engine execution; only
/// their host work and round trips overlap. Adds the wall time to `wall_us`.
std::vector<HostRun> run_side_by_side(const HostPrepared& prepared, uint32_t runs, uint32_t threads,
                                      Clock::time_point case_start,
                                      std::chrono::milliseconds budget, uint64_t& wall_us) {
  std::vector<HostRun> done(runs);
  const Clock::time_point start = Clock::now();
  parallel_for(runs, threads, [&](size_t run) {
    if (budget.count() > 0 && Clock::now() - case_start > budget) return false;
    done[run].started = true;
    done[run].observation = prepared.run();
    return done[run].observation.status == Status::Ok;
  });
  wall_us += RunClock::micros_since(start);
  return done;
}

}  // namespace

// The engine owns its buffers and dispatch grids, so the case has one
// variant: the runs.
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

  auto prepare_start = Clock::now();
  HostPrepared prepared = h.prepare(backend);
  r.compile_us += RunClock::micros_since(prepare_start);
  if (prepared.status != Status::Ok || !prepared.run) {
    record_failure(r, host_verdict(prepared.status), "prepare: " + prepared.message, "prepare",
                   h.inputs, expected, {}, std::nullopt, nullptr);
    return;
  }
  const std::vector<HostRun> runs = run_side_by_side(
      prepared, o.runs, backend.concurrent_dispatches(), case_start, o.case_budget, r.backend_us);
  RunJudge judge(expectation, expected);
  for (uint32_t run = 0; run < runs.size(); ++run) {
    const HostRun& done = runs[run];
    std::string where = "run=" + std::to_string(run + 1);
    if (!done.started) {
      record_failure(r, Verdict::Timeout,
                     "the case ran past its budget of " +
                         std::to_string(o.case_budget.count() / 1000) + " s (" +
                         std::to_string(run) + " runs done)",
                     where, h.inputs, expected, {}, std::nullopt, nullptr);
      return;
    }
    ++r.dispatches;
    const HostObservation& out = done.observation;
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
  r.verdict = Verdict::Pass;
}

}  // namespace vyre::certify
