// Automatic reduction of a failing case before it is reported: the failing
// variant (its program, grid and inputs, as its repro holds them) is shrunk
// with generators/reducer.h while it stays valid, conforming on the
// reference within a small step budget, and fails the same way on the
// backend: the same symptom (failure_symptom.h: the verdict and the same
// differing buffers, or the same stable message), so that a reduction never
// drifts from the bug it started with into another one. Cases opt in
// (SuiteCase::reduce_failures; L5's random programs do), so any level can.
#pragma once

#include <cstdint>
#include <optional>

#include "backends/backend.h"
#include "certify/report/report.h"
#include "certify/run/case_runner.h"
#include "certify/run/failure_symptom.h"
#include "certify/suite/suite_case.h"
#include "generators/reducer.h"

namespace vyre::certify {

/// Bounds of the reductions of one run or hunt. Each backend call is
/// bounded by the backend's own timeout (--timeout-ms).
struct ReductionLimits {
  /// Predicate calls and seconds of one reduction.
  ReduceOptions per_failure{.max_predicate_calls = 400, .max_seconds = 20.0};
  /// Attempts per candidate (each one dispatch, or one batch of runs when
  /// the failure happened in a batch): a nondeterministic failure may need several.
  uint32_t runs = 3;
  /// Reference steps per candidate run (past it, the candidate is uninteresting).
  uint64_t step_budget = uint64_t{1} << 22;
};

/// The symptom `backend` shows on `tc` over `runs` attempts, each
/// dispatched as `tc` records (replay_dispatch.h: one dispatch, or its batch
/// of runs) and judged byte for byte against the reference's outputs: that
/// of the first failing run, or verdict Pass when all agree; nullopt when the
/// reference rejects `tc`, flags it non-conforming or runs past
/// `step_budget` steps.
std::optional<FailureSymptom> symptom_on_backend(Backend& backend, const TestCase& tc,
                                                 uint32_t runs, uint64_t step_budget);

/// symptom_on_backend's verdict alone.
std::optional<Verdict> verdict_on_backend(Backend& backend, const TestCase& tc, uint32_t runs,
                                          uint64_t step_budget);

/// A reduced failure: the case (its expectation the reference's bytes), the
/// symptom it kept and what the reduction did.
struct ReducedFailure {
  TestCase reduced;
  FailureSymptom symptom;
  ReduceStats stats;
};

/// Reduces `failing` while the backend still shows `keep` on it (the
/// reduction's one predicate: symptom_on_backend(candidate) == keep);
/// nullopt when `failing` itself no longer shows it (a flaky failure). The
/// result is named `failing.name` + "/reduced".
std::optional<ReducedFailure> reduce_failure(Backend& backend, const TestCase& failing,
                                             const FailureSymptom& keep,
                                             const ReductionLimits& limits);

/// For a case `c` that opted in and failed in `r` with repro `failing`:
/// reduces it keeping the symptom it shows again with r's verdict, writes
/// the reduced case (Failure::reduced_repro, Failure::reduced_symptom) and,
/// for a metamorphic variant, the original program (Failure::original_repro)
/// through `write_repro`, and says in r's message what the reduction did.
void reduce_reported_failure(Backend& backend, const SuiteCase& c, const TestCase& failing,
                             const ReductionLimits& limits, const ReproWriter& write_repro,
                             CaseResult& r);

}  // namespace vyre::certify
