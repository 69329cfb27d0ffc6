#include "certify/run/host_case_runner.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "backends/hosted_work.h"
#include "certify/run/run_judge.h"

namespace vyre::certify {
namespace {

using Clock = RunClock::Clock;

/// A host-driven failure's verdict: the backend's own status (carried
/// through the engine), or Error where a failing part answered Ok.
Verdict host_verdict(Status status) {
  return status == Status::Ok ? Verdict::Error : verdict_of(status);
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

  // The whole case (prepare and every run) goes to the backend at once: an
  // isolated backend makes it in its child process, with no round trip per
  // engine step. Each run stays its own engine execution.
  HostedRunsOptions runs_options;
  runs_options.runs = o.runs;
  runs_options.threads = backend.concurrent_dispatches();
  if (o.case_budget.count() > 0) {
    const auto spent =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - case_start);
    runs_options.budget = std::max(o.case_budget - spent, std::chrono::milliseconds(1));
  }
  const Clock::time_point call_start = Clock::now();
  const HostedRunsOutcome outcome = backend.run_hosted(*h.work, runs_options);
  const uint64_t call_us = RunClock::micros_since(call_start);
  // prepare() is the case's compile; the rest of the call (the runs, and
  // the work's passage to and from a child process) is the backend's.
  r.compile_us += std::min(outcome.prepare_us, call_us);
  r.backend_us += call_us - std::min(outcome.prepare_us, call_us);
  // The device's own time of the engine's dispatches, a part of the
  // backend's (at most all of it); absent when any was not measured.
  if (outcome.device_ms) {
    r.device_us =
        std::min<uint64_t>(static_cast<uint64_t>(*outcome.device_ms * 1000.0 + 0.5), r.backend_us);
  }
  if (outcome.status != Status::Ok) {
    record_failure(r, host_verdict(outcome.status), outcome.message, "runs", h.inputs, expected, {},
                   std::nullopt, nullptr);
    return;
  }
  if (outcome.prepare_status != Status::Ok) {
    record_failure(r, host_verdict(outcome.prepare_status), "prepare: " + outcome.prepare_message,
                   "prepare", h.inputs, expected, {}, std::nullopt, nullptr);
    return;
  }
  RunJudge judge(expectation, expected);
  for (uint32_t run = 0; run < o.runs; ++run) {
    std::string where = "run=" + std::to_string(run + 1);
    if (run >= outcome.runs.size() || !outcome.runs[run]) {
      record_failure(r, Verdict::Timeout,
                     "the case ran past its budget of " +
                         std::to_string(o.case_budget.count() / 1000) + " s (" +
                         std::to_string(run) + " runs done)",
                     where, h.inputs, expected, {}, std::nullopt, nullptr);
      return;
    }
    ++r.dispatches;
    const HostObservation& out = *outcome.runs[run];
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
