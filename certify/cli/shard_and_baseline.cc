#include "certify/cli/shard_and_baseline.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>

#include "certify/report/baseline_comparison.h"
#include "certify/report/report_read.h"

namespace vyre::cli {
namespace {

/// Levenshtein distance between `a` and `b`, for suggesting the id meant.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// A known failure that names no case would never fail the gate and never
/// be reported fixed: a misspelled or stale id is refused, naming the
/// closest id of the catalog.
std::optional<std::string> unknown_known_failure(const std::vector<certify::SuiteCase>& catalog,
                                                 const certify::CertifyOptions& run) {
  std::set<std::string_view> ids;
  for (const certify::SuiteCase& c : catalog) ids.insert(c.id);
  for (const certify::KnownFailure& k : run.known_failures) {
    if (ids.contains(k.case_id)) continue;
    // The catalog holds the levels up to the run's: "L4/..." is no stale id
    // of an L2 run.
    const auto level = certify::level_named(k.case_id.substr(0, k.case_id.find('/')));
    if (level && *level > run.level) continue;
    std::string_view closest;
    size_t best = SIZE_MAX;
    for (std::string_view id : ids) {
      const size_t d = edit_distance(k.case_id, id);
      if (d < best) {
        best = d;
        closest = id;
      }
    }
    return "known failure `" + k.case_id + "` (from " + run.known_failures_source +
           ") names no case of the suite at " + std::string(certify::name_of(run.level)) +
           (closest.empty() ? "" : "; did you mean `" + std::string(closest) + "`?") +
           " Fix the id or remove it from the known failures";
  }
  return std::nullopt;
}

}  // namespace

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
    const ShardBaselineArgs& args, std::string_view suite_version,
    const std::vector<certify::SuiteCase>& catalog, certify::CertifyOptions& run,
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
  if (auto unknown = unknown_known_failure(catalog, run)) return Error{*unknown};
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
