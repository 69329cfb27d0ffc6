#include "certify/report/baseline_comparison.h"

#include <algorithm>
#include <map>
#include <set>

namespace vyre::certify {

std::vector<KnownFailure> known_failures_of(const Report& baseline, std::string_view source) {
  std::vector<KnownFailure> known;
  for (const CaseResult& c : baseline.cases) {
    if (!is_failing(c.verdict)) continue;
    known.push_back(
        {c.id, std::string(name_of(c.verdict)) + " in the baseline " + std::string(source), ""});
  }
  return known;
}

std::optional<std::string> baseline_mismatch(const Report& baseline, std::string_view backend,
                                             std::string_view suite_version) {
  if (baseline.backend != backend) {
    return "the baseline is a report of backend `" + baseline.backend + "`, this run certifies `" +
           std::string(backend) + "`; give a baseline of the same backend";
  }
  if (baseline.suite_version != suite_version) {
    return "the baseline was written by suite version " + baseline.suite_version +
           ", this is suite version " + std::string(suite_version) +
           "; its case ids may mean other cases, so write a new baseline with this version";
  }
  return std::nullopt;
}

BaselineComparison compare_with_known_failures(const std::vector<CaseResult>& cases,
                                               const std::vector<KnownFailure>& known,
                                               std::string source) {
  // The first entry of an id wins: the gate file's come before the baseline's.
  std::map<std::string, const KnownFailure*> known_by_id;
  for (const KnownFailure& k : known) known_by_id.emplace(k.case_id, &k);
  BaselineComparison out;
  out.source = std::move(source);
  for (const CaseResult& c : cases) {
    const auto entry = known_by_id.find(c.id);
    const bool is_known = entry != known_by_id.end();
    const bool failing = is_failing(c.verdict);
    if (failing && !is_known) out.new_failures.push_back(c.id);
    if (!failing && is_known) out.fixed.push_back(c.id);
    if (failing && is_known) out.still_failing.push_back(c.id);
    if (is_known) out.known.push_back(*entry->second);
  }
  return out;
}

bool gate_passes(const Report& report) {
  if (report.baseline) return report.baseline->new_failures.empty();
  if (report.shard) {
    return std::none_of(report.cases.begin(), report.cases.end(),
                        [](const CaseResult& c) { return is_failing(c.verdict); });
  }
  return report.certified;
}

}  // namespace vyre::certify
