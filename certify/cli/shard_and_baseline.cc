#include "certify/cli/shard_and_baseline.h"

#include <cstdio>

#include "certify/report/baseline_comparison.h"
#include "certify/report/report_read.h"

namespace vyre::cli {

bool take_shard_baseline_option(const std::string& flag, const std::string& value,
                                ShardBaselineArgs& out, std::optional<std::string>& error) {
  if (flag == "--shard") {
    auto spec = certify::parse_shard_spec(value);
    if (!spec) {
      error = spec.error().message;
    } else {
      out.shard = *spec;
    }
  } else if (flag == "--baseline" || flag == "--shard-times") {
    if (value.empty()) error = flag + " needs the path of a report.json";
    (flag == "--baseline" ? out.baseline : out.shard_times) = value;
  } else {
    return false;
  }
  return true;
}

Result<std::optional<certify::ShardInfo>> apply_shard_and_baseline(
    const ShardBaselineArgs& args, std::string_view suite_version, certify::CertifyOptions& run,
    std::vector<const certify::SuiteCase*>& chosen) {
  if (!args.shard_times.empty() && !args.shard) {
    return Error{"--shard-times balances shards; give it with --shard I/N"};
  }
  std::optional<certify::Report> baseline;
  if (!args.baseline.empty()) {
    auto read = certify::read_report_file(args.baseline);
    if (!read) return Error{"--baseline " + read.error().message};
    if (auto mismatch = certify::baseline_mismatch(read->report, run.backend, suite_version)) {
      return Error{"--baseline " + args.baseline + ": " + *mismatch};
    }
    const auto known = certify::known_failures_of(read->report, args.baseline);
    run.known_failures.insert(run.known_failures.end(), known.begin(), known.end());
    // A gate file's list and the baseline's together: the report names both.
    run.known_failures_source = run.known_failures_source.empty()
                                    ? args.baseline
                                    : run.known_failures_source + " and " + args.baseline;
    baseline = std::move(read->report);
  }
  if (!args.shard) return std::optional<certify::ShardInfo>();

  std::map<std::string, uint64_t> times;
  if (!args.shard_times.empty()) {
    auto read = certify::read_report_file(args.shard_times);
    if (!read) return Error{"--shard-times " + read.error().message};
    times = certify::recorded_case_costs(read->report);
  } else if (baseline) {
    times = certify::recorded_case_costs(*baseline);
  }
  std::vector<std::string> ids;
  for (const certify::SuiteCase* c : chosen) ids.push_back(c->id);
  certify::ShardInfo info{args.shard->index, args.shard->count,
                          static_cast<uint32_t>(chosen.size()), certify::selection_digest(ids)};
  chosen = certify::cases_of_shard(chosen, *args.shard, times);
  if (chosen.empty()) {
    return Error{"--shard " + std::to_string(info.index) + "/" + std::to_string(info.count) +
                 " gets no case: the selection has only " + std::to_string(info.selected) +
                 " case(s); use fewer shards"};
  }
  return std::optional(info);
}

void print_gate_summary(const certify::Report& report) {
  if (!report.baseline) return;
  const certify::BaselineComparison& b = *report.baseline;
  std::printf("gate %s: %zu new failure(s), %zu fixed, %zu still failing (known from %s)\n",
              b.new_failures.empty() ? "passes" : "FAILS", b.new_failures.size(), b.fixed.size(),
              b.still_failing.size(), b.source.c_str());
  for (const std::string& id : b.new_failures) std::printf("  new failure: %s\n", id.c_str());
}

}  // namespace vyre::cli
