#include "certify/run/host_case_runner.h"

#include <memory>

#include "backends/reference_backend.h"
#include "certify/run/run_judge.h"

namespace vyre::certify {
namespace {

using Clock = RunClock::Clock;

/// The outputs of one run of `h` on `reference`; on failure, records an
/// invalid case in `r` (the suite, not the backend under test, is at fault)
/// and returns nullopt.
std::optional<BufferSet> reference_run(Backend& reference, const HostCase& h, CaseResult& r) {
  auto start = Clock::now();
  HostPrepared prepared = h.prepare(reference);
  std::optional<HostObservation> out;
  if (prepared.status == Status::Ok && prepared.run) out = prepared.run();
  r.reference_us += RunClock::micros_since(start);
  std::string why = !out                        ? "prepare: " + prepared.message
                    : out->status != Status::Ok ? out->message
                                                : "";
  if (!why.empty()) {
    record_failure(r, Verdict::InvalidCase, "the reference backend cannot run the case: " + why,
                   "reference", h.inputs, {}, {}, std::nullopt, nullptr);
    return std::nullopt;
  }
  return std::move(out->outputs);
}

/// A host-driven failure's verdict: the backend's own status (carried
/// through the engine), or Error where a failing part answered Ok.
Verdict host_verdict(Status status) {
  return status == Status::Ok ? Verdict::Error : verdict_of(status);
}

}  // namespace

// The engine owns its buffers and dispatch grids, so the case has one
// variant: the runs.
void run_host_case(Backend& backend, const SuiteCase& c, const HostCase& h, const CaseRunOptions& o,
                   CaseResult& r) {
  r.variants = 1;
  // Expected bytes: the reference backend's, which must itself agree with
  // the case's hand-computed or oracle expectation.
  std::unique_ptr<Backend> own_reference;
  if (!o.reference) own_reference = make_reference_backend(BackendOptions{});
  std::optional<BufferSet> reference =
      reference_run(o.reference ? *o.reference : *own_reference, h, r);
  if (!reference) return;
  TestCase oracle;
  oracle.expected = h.expected;
  if (Judgement j = judge_outputs(oracle, *reference); j.difference) {
    record_failure(r, Verdict::InvalidCase,
                   "the reference backend disagrees with the case's expectation (" + c.oracle +
                       "): " + *j.difference,
                   "reference", h.inputs, h.expected, *reference, std::nullopt, nullptr);
    return;
  }
  TestCase expectation;
  expectation.name = c.id;
  expectation.expected = *reference;
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
    auto start = Clock::now();
    HostObservation out = prepared.run();
    r.backend_us += RunClock::micros_since(start);
    ++r.dispatches;
    std::string where = "run=" + std::to_string(run + 1);
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
