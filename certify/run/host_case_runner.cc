#include "certify/run/host_case_runner.h"

#include <algorithm>

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

  auto prepare_start = Clock::now();
  HostPrepared prepared = h.prepare(backend);
  r.compile_us += RunClock::micros_since(prepare_start);
  if (prepared.status != Status::Ok || !prepared.run) {
    record_failure(r, host_verdict(prepared.status), "prepare: " + prepared.message, "prepare",
                   h.inputs, expected, {}, std::nullopt, nullptr);
    return;
  }
  RunJudge judge(expectation, expected);
  for (uint32_t run = 0; run < o.runs; ++run) {
    std::string where = "run=" + std::to_string(run + 1);
    if (o.case_budget.count() > 0 && Clock::now() - case_start > o.case_budget) {
      record_failure(r, Verdict::Timeout,
                     "the case ran past its budget of " +
                         std::to_string(o.case_budget.count() / 1000) + " s (" +
                         std::to_string(run) + " runs done)",
                     where, h.inputs, expected, {}, std::nullopt, nullptr);
      return;
    }
    auto start = Clock::now();
    HostObservation out = prepared.run();
    r.backend_us += RunClock::micros_since(start);
    ++r.dispatches;
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
