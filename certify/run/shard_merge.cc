#include "certify/run/shard_merge.h"

#include <fnmatch.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "certify/report/selection_digest.h"
#include "certify/run/random_coverage.h"

namespace vyre::certify {
namespace {

std::string name_of_shard(const SealedReport& s) {
  return s.path.empty() ? "a shard report" : s.path;
}

/// One thing every shard of a run shares, and how to show it.
struct SharedMember {
  std::string_view what;
  std::function<std::string(const Report&)> value;
};

const std::vector<SharedMember>& shared_members() {
  static const std::vector<SharedMember> table = {
      {"shard count N", [](const Report& r) { return std::to_string(r.shard->count); }},
      {"seed", [](const Report& r) { return std::to_string(r.seed); }},
      {"runs", [](const Report& r) { return std::to_string(r.runs); }},
      {"level", [](const Report& r) { return std::string(name_of(r.requested_level)); }},
      {"filter", [](const Report& r) { return r.filter; }},
      {"backend", [](const Report& r) { return r.backend; }},
      {"device", [](const Report& r) { return r.device.device_name + " / " + r.device.driver; }},
      // Everything the cases' device_fingerprint covers (limits and API too).
      {"device fingerprint",
       [](const Report& r) { return device_fingerprint(r.backend, device_to_json(r.device)); }},
      {"suite_version", [](const Report& r) { return r.suite_version; }},
      {"selection_digest", [](const Report& r) { return r.shard->selection_digest; }},
      {"baseline", [](const Report& r) { return r.baseline ? r.baseline->source : "none"; }},
  };
  return table;
}

Result<Ok> check_shards_agree(const std::vector<SealedReport>& shards) {
  if (shards.empty()) return Error{"no shard report to merge"};
  for (const SealedReport& s : shards) {
    if (!s.report.shard) {
      return Error{name_of_shard(s) +
                   ": not a shard report (no `shard` member); merge joins the reports of "
                   "`vyre-certify --shard I/N` runs"};
    }
  }
  const Report& first = shards[0].report;
  for (const SealedReport& s : shards) {
    for (const SharedMember& m : shared_members()) {
      if (m.value(s.report) == m.value(first)) continue;
      return Error{"the shards disagree on " + std::string(m.what) + ": " +
                   name_of_shard(shards[0]) + " says `" + m.value(first) + "`, " +
                   name_of_shard(s) + " says `" + m.value(s.report) +
                   "`; merge only shards of one run"};
    }
  }
  std::map<uint32_t, const SealedReport*> by_index;
  for (const SealedReport& s : shards) {
    auto [at, fresh] = by_index.emplace(s.report.shard->index, &s);
    if (!fresh) {
      return Error{"shard " + std::to_string(s.report.shard->index) +
                   " is given twice: " + name_of_shard(*at->second) + " and " + name_of_shard(s)};
    }
  }
  for (uint32_t i = 1; i <= first.shard->count; ++i) {
    if (!by_index.contains(i)) {
      return Error{"shard " + std::to_string(i) + " of " + std::to_string(first.shard->count) +
                   " is missing; give the report folder of every shard"};
    }
  }
  return Ok{};
}

/// L5's coverage of the shards together: an entry is missed only if every
/// shard that ran random programs missed it.
std::optional<RandomProgramSummary> merge_random_programs(const std::vector<SealedReport>& shards) {
  std::optional<RandomProgramSummary> merged;
  for (const SealedReport& s : shards) {
    const auto& part = s.report.random_programs;
    if (!part) continue;
    if (!merged) {
      merged = part;
      continue;
    }
    merged->programs += part->programs;
    const std::set<std::string> missed(part->not_reached.begin(), part->not_reached.end());
    std::vector<std::string> both;
    for (const std::string& line : merged->not_reached) {
      if (missed.contains(line)) both.push_back(line);
    }
    // Each category's reached count rises by the entries this shard reached.
    std::map<std::string, uint32_t> newly_reached;
    for (const std::string& line : merged->not_reached) {
      if (!missed.contains(line)) ++newly_reached[coverage_category(line)];
    }
    for (CoverageCategory& c : merged->categories) c.reached += newly_reached[c.category];
    merged->not_reached = std::move(both);
  }
  return merged;
}

/// The shards name the selection this build's catalogue gives for their
/// filter: shards that agree with each other on a selection of their own
/// (cases left out, digest recomputed) would otherwise merge into a report
/// that looks whole.
Result<Ok> check_selection(const Report& first, const std::vector<std::string>& catalog_order) {
  std::vector<std::string> selected;
  for (const std::string& id : catalog_order) {
    if (first.filter.empty() || fnmatch(first.filter.c_str(), id.c_str(), 0) == 0) {
      selected.push_back(id);
    }
  }
  const std::string digest = selection_digest(selected);
  if (selected.size() == first.shard->selected && digest == first.shard->selection_digest) {
    return Ok{};
  }
  return Error{"the shards name a selection of " + std::to_string(first.shard->selected) +
               " cases (selection_digest " + first.shard->selection_digest +
               "), but this build's catalogue for seed " + std::to_string(first.seed) + " up to " +
               std::string(name_of(first.requested_level)) +
               (first.filter.empty() ? std::string() : " filtered by `" + first.filter + "`") +
               " selects " + std::to_string(selected.size()) + " (" + digest +
               "): the shards are of another suite build, or cases were left out of them"};
}

/// The merged dispatch split: the shards' device times and measured cases
/// added up; a shard without a split measured none, so its dispatch phase
/// is host work and its cases unmeasured. Absent when no shard measured.
void merge_dispatch_splits(const std::vector<const SealedReport*>& shards, Report& merged) {
  uint64_t device = 0;
  uint32_t measured = 0;
  bool any = false;
  for (const SealedReport* s : shards) {
    if (!s->report.dispatch_split) continue;
    any = true;
    device += s->report.dispatch_split->device_us;
    measured += s->report.dispatch_split->measured_cases;
  }
  if (!any) return;
  const uint64_t dispatch = merged.phase_us["dispatch"];
  device = std::min(device, dispatch);
  measured = std::min<uint32_t>(measured, static_cast<uint32_t>(merged.cases.size()));
  merged.dispatch_split = DispatchSplit{device, dispatch - device, measured,
                                        static_cast<uint32_t>(merged.cases.size()) - measured};
}

}  // namespace

Result<Report> merge_shard_reports(const std::vector<SealedReport>& shards,
                                   const std::vector<std::string>& catalog_order) {
  if (auto agree = check_shards_agree(shards); !agree) return agree.error();
  if (auto selection = check_selection(shards[0].report, catalog_order); !selection) {
    return selection.error();
  }
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < catalog_order.size(); ++i) position.emplace(catalog_order[i], i);

  std::vector<const SealedReport*> in_order;
  for (const SealedReport& s : shards) in_order.push_back(&s);
  std::sort(in_order.begin(), in_order.end(), [](const SealedReport* a, const SealedReport* b) {
    return a->report.shard->index < b->report.shard->index;
  });

  const Report& first = in_order[0]->report;
  Report merged;
  merged.suite_version = first.suite_version;
  merged.backend = first.backend;
  merged.device = first.device;
  merged.seed = first.seed;
  merged.runs = first.runs;
  merged.filter = first.filter;
  merged.requested_level = first.requested_level;
  merged.started_utc = first.started_utc;
  merged.shards.emplace();
  std::map<std::string, const SealedReport*> owner;
  for (const SealedReport* s : in_order) {
    const Report& r = s->report;
    // ISO 8601 UTC text sorts as time does.
    merged.started_utc = std::min(merged.started_utc, r.started_utc);
    merged.wall_us += r.wall_us;
    for (const auto& [phase, us] : r.phase_us) merged.phase_us[phase] += us;
    merged.shards->push_back(s->digest);
    for (const CaseResult& c : r.cases) {
      auto [at, fresh] = owner.emplace(c.id, s);
      if (!fresh) {
        return Error{"the case `" + c.id + "` is in two shards: " + name_of_shard(*at->second) +
                     " and " + name_of_shard(*s) + "; merge only shards of one run"};
      }
      if (!position.contains(c.id)) {
        return Error{name_of_shard(*s) + ": the case `" + c.id +
                     "` is not in this build's catalog for seed " + std::to_string(first.seed) +
                     " at " + std::string(name_of(first.requested_level))};
      }
      merged.cases.push_back(c);
    }
  }
  merge_dispatch_splits(in_order, merged);
  std::vector<std::string> ids;
  for (const CaseResult& c : merged.cases) ids.push_back(c.id);
  if (ids.size() != first.shard->selected ||
      selection_digest(ids) != first.shard->selection_digest) {
    return Error{"the shards hold " + std::to_string(ids.size()) +
                 " cases, which are not the selection of " + std::to_string(first.shard->selected) +
                 " cases they name (selection_digest " + first.shard->selection_digest + ")"};
  }
  const auto by_catalog = [&](const std::string& a, const std::string& b) {
    return position.at(a) < position.at(b);
  };
  std::sort(merged.cases.begin(), merged.cases.end(),
            [&](const CaseResult& a, const CaseResult& b) { return by_catalog(a.id, b.id); });
  merged.random_programs = merge_random_programs(shards);
  if (first.baseline) {
    BaselineComparison joined;
    joined.source = first.baseline->source;
    for (const SealedReport* s : in_order) {
      const BaselineComparison& b = *s->report.baseline;
      joined.new_failures.insert(joined.new_failures.end(), b.new_failures.begin(),
                                 b.new_failures.end());
      joined.fixed.insert(joined.fixed.end(), b.fixed.begin(), b.fixed.end());
      joined.still_failing.insert(joined.still_failing.end(), b.still_failing.begin(),
                                  b.still_failing.end());
      joined.known.insert(joined.known.end(), b.known.begin(), b.known.end());
    }
    for (auto* list : {&joined.new_failures, &joined.fixed, &joined.still_failing}) {
      for (const std::string& id : *list) {
        if (!position.contains(id))
          return Error{"the baseline lists `" + id + "`, not a case of the catalog"};
      }
      std::sort(list->begin(), list->end(), by_catalog);
    }
    for (const KnownFailure& k : joined.known) {
      if (!position.contains(k.case_id))
        return Error{"the baseline gives a reason for `" + k.case_id +
                     "`, not a case of the catalog"};
    }
    std::sort(joined.known.begin(), joined.known.end(),
              [&](const KnownFailure& a, const KnownFailure& b) {
                return by_catalog(a.case_id, b.case_id);
              });
    merged.baseline = std::move(joined);
  }
  judge(merged);
  return merged;
}

}  // namespace vyre::certify
