#include "certify/run/failure_reduction.h"

#include <algorithm>

#include "certify/run/replay_dispatch.h"
#include "certify/suite/random_program_cases.h"
#include "reference/interpreter.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

std::optional<BufferSet> reference_outputs(const TestCase& tc, uint64_t step_budget) {
  reference::RunOptions options;
  // A candidate over a large grid gets the budget its screening had.
  options.step_budget = std::max(step_budget, random_program_step_budget(tc));
  auto ref = reference::run(tc.program, tc.inputs, tc.grid, options);
  if (!ref.ok() || !ref->conforming()) return std::nullopt;
  return std::move(ref->outputs);
}

}  // namespace

std::optional<FailureSymptom> symptom_on_backend(Backend& backend, const TestCase& tc,
                                                 uint32_t runs, uint64_t step_budget) {
  std::optional<BufferSet> expected = reference_outputs(tc, step_budget);
  if (!expected) return std::nullopt;
  CompileOutcome compiled = backend.compile_encoded(tc.program, tc.encoding);
  if (compiled.status != Status::Ok) {
    return status_symptom(verdict_of(compiled.status), compiled.message);
  }
  if (!compiled.program) return status_symptom(Verdict::BadOutput, "compile returned no program");
  // Judged byte for byte against the reference's outputs, each attempt
  // dispatched as the failure was (one dispatch, or the recorded batch).
  TestCase judged = tc;
  judged.expected = std::move(expected);
  judged.comparison = Comparison::Bytes;
  for (uint32_t attempt = 0; attempt < runs; ++attempt) {
    const ReplayOutcome out = replay_dispatch(backend, *compiled.program, judged);
    const std::optional<RunFailure> failure = first_failing_run(judged, out);
    if (!failure) continue;
    // A run ended by a status returned no outputs to compare.
    if (out.status != Status::Ok) return status_symptom(failure->verdict, out.message);
    return output_symptom(failure->verdict, *judged.expected, failure->outputs);
  }
  return FailureSymptom{};
}

std::optional<Verdict> verdict_on_backend(Backend& backend, const TestCase& tc, uint32_t runs,
                                          uint64_t step_budget) {
  const std::optional<FailureSymptom> s = symptom_on_backend(backend, tc, runs, step_budget);
  if (!s) return std::nullopt;
  return s->verdict;
}

namespace {

/// Reduces `failing`, which the backend has just been seen to show `keep`
/// on, while every candidate shows it too.
ReducedFailure reduce_shown(Backend& backend, const TestCase& failing, const FailureSymptom& keep,
                            const ReductionLimits& limits) {
  // The same symptom, not just the same verdict: a candidate that deleted
  // the wrong store and now fails in another buffer shows another bug.
  const auto interesting = [&](const TestCase& candidate) {
    return symptom_on_backend(backend, candidate, limits.runs, limits.step_budget) == keep;
  };
  ReducedFailure out;
  out.symptom = keep;
  out.reduced = reduce(failing, interesting, limits.per_failure, &out.stats);
  out.reduced.name = failing.name + "/reduced";
  // The repro expects what a conforming backend gives: the reference's bytes.
  out.reduced.expected = reference_outputs(out.reduced, limits.step_budget);
  out.reduced.comparison = Comparison::Bytes;
  return out;
}

}  // namespace

std::optional<ReducedFailure> reduce_failure(Backend& backend, const TestCase& failing,
                                             const FailureSymptom& keep,
                                             const ReductionLimits& limits) {
  if (symptom_on_backend(backend, failing, limits.runs, limits.step_budget) != keep) {
    return std::nullopt;
  }
  return reduce_shown(backend, failing, keep, limits);
}

void reduce_reported_failure(Backend& backend, const SuiteCase& c, const TestCase& failing,
                             const ReductionLimits& limits, const ReproWriter& write_repro,
                             CaseResult& r) {
  if (!r.failure) return;
  if (const TestCase* original = original_of(c)) r.failure->original_repro = write_repro(*original);
  // The symptom to keep is the one the failure shows again, judged as every
  // candidate will be (bytes against the reference's outputs).
  const std::optional<FailureSymptom> shown =
      symptom_on_backend(backend, failing, limits.runs, limits.step_budget);
  // That check is the failure's repeat; reducing does not check it again.
  std::optional<ReducedFailure> reduced;
  if (shown && shown->verdict == r.verdict)
    reduced = reduce_shown(backend, failing, *shown, limits);
  if (!reduced) {
    const std::string attempts =
        std::to_string(limits.runs) +
        (failing.batch ? " batches of " + std::to_string(failing.batch->runs) + " runs" : " runs");
    r.message += " [not reduced: the failure did not repeat within " + attempts + "]";
    return;
  }
  r.failure->reduced_repro = write_repro(reduced->reduced);
  r.failure->reduced_symptom = describe(reduced->symptom);
  r.message += " [reduced in " + std::to_string(reduced->stats.predicate_calls) +
               " backend checks" + (reduced->stats.capped ? ", stopped at its cap" : "") +
               ", keeping " + r.failure->reduced_symptom + "]";
}

}  // namespace vyre::certify
