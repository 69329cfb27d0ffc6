// The certify options of a gate run split over machines or compared with an
// earlier run: --shard I/N, --shard-times REPORT.json and --baseline
// REPORT.json, parsed and applied here so that cmd_certify calls one function.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "certify/report/report.h"
#include "certify/run/certification_run.h"
#include "certify/run/shard_split.h"
#include "spec/support/result.h"

namespace vyre::cli {

/// --baseline, --shard and --shard-times as given.
struct ShardBaselineArgs {
  /// Path of the baseline report.json; empty when none.
  std::string baseline;
  std::optional<certify::ShardSpec> shard;
  /// Path of the report.json whose case times balance the shards; empty when none.
  std::string shard_times;
};

/// Takes `flag` if it is --baseline, --shard or --shard-times (returns true), setting
/// `error` when its value is bad; false for any other flag.
bool take_shard_baseline_option(const std::string& flag, const std::string& value,
                                ShardBaselineArgs& out, std::optional<std::string>& error);

/// Applied after select_cases: reads the baseline (verified, same backend
/// and suite version as `run`) into run.known_failures, checks that every
/// known failure (gate file and baseline) names a case of `catalog` (the
/// whole catalog up to run.level; an id of a higher level is let be), and
/// narrows `chosen`
/// to the shard, balanced by the --shard-times report's case times, else the
/// baseline's, else one unit per case. Returns the report's ShardInfo
/// (nullopt unsharded); an Error (exit 2) names a bad report, a mismatched
/// baseline, a known failure that is no case (with the closest id) or a
/// shard that gets no case.
Result<std::optional<certify::ShardInfo>> apply_shard_and_baseline(
    const ShardBaselineArgs& args, std::string_view suite_version,
    const std::vector<certify::SuiteCase>& catalog, certify::CertifyOptions& run,
    std::vector<const certify::SuiteCase*>& chosen);

/// One line on stdout for the gate: new, fixed and still-failing cases when
/// the report has a baseline; nothing otherwise.
void print_gate_summary(const certify::Report& report);

}  // namespace vyre::cli
