// Dispatching a case the way its repro records (the `batch` clause,
// spec/text/GRAMMAR.md): one dispatch_runs call of the recorded runs and
// submissions when the failure happened on the batched path, one dispatch()
// otherwise; and judging every run that came back as the certification run
// does. `vyre-certify run` replays repros and the reducer checks candidates
// through it, so a failure of the batched path repeats where it happened.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.h"
#include "certify/report/report.h"
#include "spec/ir/test_case.h"

namespace vyre::certify {

/// What one dispatch of a case gave.
struct ReplayOutcome {
  /// Ok when every run finished; otherwise the failing run's status.
  Status status = Status::Ok;
  std::string message;
  /// The run (from 1) `status` came from; 0 when Ok.
  uint32_t failed_run = 0;
  /// Runs made and the submissions they went in.
  uint32_t runs = 0;
  uint32_t submissions = 0;
  /// Run 1's outputs, then those of every run whose bytes differ from run
  /// 1's, each with its run number (from 1), in run order.
  std::vector<std::pair<uint32_t, BufferSet>> outputs;
};

/// Dispatches `tc` (compiled as `program`) on `backend` as recorded.
ReplayOutcome replay_dispatch(Backend& backend, const CompiledProgram& program, const TestCase& tc);

/// The first failing run of a replay, judged against `expectation` (its
/// expected outputs under its comparison).
struct RunFailure {
  uint32_t run = 0;  ///< From 1.
  Verdict verdict = Verdict::Fail;
  std::string why;
  /// The run's outputs (empty when it ended with a status).
  BufferSet outputs;
};

/// The first run of `outcome` that fails: one ended by a status, one whose
/// outputs have the wrong shape (BadOutput) or differ from the expectation
/// (Fail); nullopt when every run passes. `expectation.expected` must be set.
std::optional<RunFailure> first_failing_run(const TestCase& expectation,
                                            const ReplayOutcome& outcome);

}  // namespace vyre::certify
