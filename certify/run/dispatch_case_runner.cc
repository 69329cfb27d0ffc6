#include "certify/run/dispatch_case_runner.h"

#include <algorithm>
#include <map>
#include <optional>

#include "certify/run/output_shape.h"
#include "certify/run/run_judge.h"

namespace vyre::certify {
namespace {

using Clock = RunClock::Clock;

/// Runs recorded in separate submissions per variant, so that effects from
/// one submission to the next (stale outputs, caches) are still seen.
constexpr uint32_t kSubmissionsPerVariant = 4;

/// Records an invalid case (the suite's fault, not the backend's).
void record_invalid(CaseResult& r, const InvalidCase& invalid) {
  record_failure(r, Verdict::InvalidCase, invalid.message, invalid.variant, invalid.inputs,
                 invalid.expected, invalid.observed, std::nullopt, nullptr);
}

/// Judges one batch of runs of a variant, dispatched with `options`;
/// records a failure in `r` and returns false at the first run that fails.
/// Its repro says how the batch was dispatched (the `batch` clause), so that
/// replaying and reducing it take the same path.
bool judge_batch(const BatchOutcome& batch, const BatchOptions& options, const Variant& v,
                 const TestCase& expectation, RunJudge& judge, CaseResult& r,
                 const ReproWriter& write_repro) {
  const BufferSet& inputs = v.test_case.inputs;
  const BufferSet& expected = *expectation.expected;
  const auto where = [&](uint32_t run) { return v.label + " run=" + std::to_string(run + 1); };
  const auto repro = [&](uint32_t run) {
    TestCase batched = expectation;
    batched.batch = BatchDispatch{options.runs, options.submissions, run + 1};
    return std::optional<TestCase>(std::move(batched));
  };
  if (batch.status != Status::Ok) {
    record_failure(r, verdict_of(batch.status), "dispatch: " + batch.message,
                   where(batch.failed_run), inputs, expected, {}, repro(batch.failed_run),
                   write_repro);
    return false;
  }
  // Run 0's bytes against the expectation; every run the backend did not
  // list gave exactly run 0's bytes, and each listed one is judged too.
  std::vector<std::pair<uint32_t, const BufferSet*>> judged = {{0, &batch.first_outputs}};
  for (const DifferingRun& d : batch.differing) judged.emplace_back(d.run, &d.outputs);
  // A differing run comes back without its scratch buffers; run 0 whole.
  const std::vector<std::string> none;
  for (const auto& [run, outputs] : judged) {
    if (auto malformed = output_shape_problem(v.test_case.program, inputs, *outputs,
                                              run == 0 ? none : options.scratch)) {
      record_failure(r, Verdict::BadOutput, "dispatch: " + *malformed, where(run), inputs, expected,
                     *outputs, repro(run), write_repro);
      return false;
    }
    BufferSet shown;
    std::optional<std::string> diff = judge.judge(*outputs, shown);
    r.distinct_outputs = std::max(r.distinct_outputs, judge.distinct_outputs());
    if (diff) {
      record_failure(r, Verdict::Fail, *diff, where(run), inputs, expected, shown, repro(run),
                     write_repro);
      return false;
    }
  }
  if (batch.differing_runs > batch.differing.size()) {
    // Only a byte comparison leaves differing runs unreported, and under it
    // a run whose bytes differ from run 0's (which passed) fails.
    const uint32_t last = batch.differing.empty() ? 0 : batch.differing.back().run;
    record_failure(r, Verdict::Fail,
                   std::to_string(batch.differing_runs) +
                       " runs gave other bytes than run 1 (runs disagree: nondeterministic)",
                   where(last), inputs, expected, {}, repro(last), write_repro);
    return false;
  }
  return true;
}

/// Adds a batch's device time to the case's: the case stays measured only
/// while every batch was. A batch's device time never exceeds the wall time
/// it was measured within, `batch_us` (a device clock that runs fast, or
/// rounding, could make it): the split stays device <= wall.
void add_device_time(CaseResult& r, std::optional<double> device_ms, uint64_t batch_us,
                     bool first) {
  std::optional<uint64_t> batch;
  if (device_ms) {
    batch = std::min<uint64_t>(batch_us, static_cast<uint64_t>(*device_ms * 1000.0 + 0.5));
  }
  if (first) {
    r.device_us = batch;
  } else if (!r.device_us || !batch) {
    r.device_us.reset();
  } else {
    *r.device_us += *batch;
  }
}

/// Runs variant `ve` of a case; false after recording its failure in `r`.
bool run_variant(Backend& backend, const CaseExpectations& expectations,
                 const VariantExpectation& ve, const CaseRunOptions& o,
                 const ReproWriter& write_repro,
                 std::map<CompileKey, std::shared_ptr<const CompiledProgram>>& compiled,
                 Clock::time_point case_start, uint32_t& batches, CaseResult& r) {
  if (ve.invalid) {
    record_invalid(r, *ve.invalid);
    return false;
  }
  const Variant& v = ve.variant;
  // The repro of a failure of this variant is its expectation: the
  // variant's inputs, expecting what the judge compares against.
  const TestCase& expectation = *ve.expectation;
  const BufferSet& expected = *expectation.expected;

  const CompileKey key = compile_key(v.test_case);
  auto& program = compiled[key];
  if (!program) {
    CompileOutcome out;
    if (auto ahead = expectations.compiled.find(key); ahead != expectations.compiled.end()) {
      out = ahead->second;
    } else {
      auto compile_start = Clock::now();
      out = backend.compile_encoded(v.test_case.program, key.second);
      r.compile_us += RunClock::micros_since(compile_start);
    }
    if (out.status != Status::Ok || !out.program) {
      Verdict verdict = out.status == Status::Ok ? Verdict::BadOutput : verdict_of(out.status);
      record_failure(r, verdict, "compile: " + out.message, v.label, v.test_case.inputs, expected,
                     {}, expectation, write_repro);
      return false;
    }
    program = out.program;
  }

  // The budget is checked between variants: one variant's runs are one
  // batch, itself bounded by the backend's submission timeout.
  if (o.case_budget.count() > 0 && Clock::now() - case_start > o.case_budget) {
    record_failure(r, Verdict::Timeout,
                   "the case ran past its budget of " +
                       std::to_string(o.case_budget.count() / 1000) + " s (" +
                       std::to_string(r.dispatches) + " dispatches done)",
                   v.label, v.test_case.inputs, expected, {}, expectation, write_repro);
    return false;
  }
  BatchOptions batch_options;
  batch_options.runs = o.runs;
  batch_options.submissions = std::min(kSubmissionsPerVariant, o.runs);
  // Raw bytes may differ legitimately under a canonical comparison
  // (findings in another order): every such run comes back to be judged,
  // without the buffers the judge never reads (graph.bfs's visited_set and
  // bfs_queue, megabytes a run), which alone make no run differ.
  if (expectation.comparison != Comparison::Bytes) batch_options.reported_differing = o.runs;
  batch_options.scratch = unjudged_buffers(expectation);
  auto start = Clock::now();
  BatchOutcome batch =
      backend.dispatch_runs(*program, v.test_case.inputs, v.test_case.grid, batch_options);
  const uint64_t batch_us = RunClock::micros_since(start);
  r.backend_us += batch_us;
  add_device_time(r, batch.timing.device_ms, batch_us, batches++ == 0);
  r.dispatches += batch.dispatches;
  r.per_dispatch_us += batch.timing.per_dispatch_us * batch.dispatches;
  RunJudge judge(expectation, expected);
  return judge_batch(batch, batch_options, v, expectation, judge, r, write_repro);
}

}  // namespace

void run_dispatch_case(Backend& backend, const CaseExpectations& expectations,
                       const CaseRunOptions& o, const ReproWriter& write_repro, CaseResult& r) {
  const Clock::time_point case_start = Clock::now();
  r.variants = static_cast<uint32_t>(expectations.variants.size());
  std::map<CompileKey, std::shared_ptr<const CompiledProgram>> compiled;
  uint32_t batches = 0;
  for (const VariantExpectation& ve : expectations.variants) {
    if (!run_variant(backend, expectations, ve, o, write_repro, compiled, case_start, batches, r)) {
      // A failure in another lowering than the one emitted says which one
      // broke: the as-emitted variants of the same program passed before it.
      if (const Encoding e = ve.variant.test_case.encoding; e != Encoding::AsEmitted) {
        r.message = "in encoding " + std::string(name_of(e)) + ": " + r.message;
      }
      return;
    }
  }
  r.verdict = Verdict::Pass;
}

}  // namespace vyre::certify
