// A run compared with its known failures (from a --baseline report or a gate
// file): the gate fails only on new failures, while the report's own verdict
// stays that of its cases.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "certify/report/known_failure.h"
#include "certify/report/report.h"

namespace vyre::certify {

/// The known failures a baseline report gives: each of its failing cases
/// (is_failing), with its status and `source` as the reason.
std::vector<KnownFailure> known_failures_of(const Report& baseline, std::string_view source);

/// Why `baseline` cannot serve a run of `backend` on suite `suite_version`
/// (another backend or suite version: its case ids and failures mean
/// something else); nullopt when it can.
std::optional<std::string> baseline_mismatch(const Report& baseline, std::string_view backend,
                                             std::string_view suite_version);

/// The run's `cases` against `known`: new failures (failing, not known),
/// fixed (known, passing) and still failing (known, failing). Known failures
/// of cases the run did not select (another shard, another filter) are in no list.
BaselineComparison compare_with_known_failures(const std::vector<CaseResult>& cases,
                                               const std::vector<KnownFailure>& known,
                                               std::string source);

/// The gate's verdict, which decides vyre-certify's exit code: with known
/// failures, no new failure; for one shard, no failing case (its levels are
/// judged whole only once merged); otherwise the report is certified.
bool gate_passes(const Report& report);

}  // namespace vyre::certify
