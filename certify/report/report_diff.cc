#include "certify/report/report_diff.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>

namespace vyre::certify {
namespace {

std::string status_text(const std::optional<Verdict>& v) {
  return v ? std::string(name_of(*v)) : std::string("(absent)");
}

std::string ms_with_unit(uint64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", static_cast<double>(us) / 1000.0);
  return buf;
}

/// Compile plus backend time, saturating: a report's times are u64 values
/// a forged or broken report can set near 2^64.
uint64_t case_time_us(const CaseResult& c) {
  return c.compile_us > UINT64_MAX - c.backend_us ? UINT64_MAX : c.compile_us + c.backend_us;
}

}  // namespace

ReportDiff diff_reports(const Report& a, const Report& b) {
  std::map<std::string, const CaseResult*> in_a;
  std::map<std::string, const CaseResult*> in_b;
  for (const CaseResult& c : a.cases) in_a[c.id] = &c;
  for (const CaseResult& c : b.cases) in_b[c.id] = &c;
  ReportDiff diff;
  if (a.suite_version != b.suite_version) {
    diff.suite_versions = std::pair(a.suite_version, b.suite_version);
  }
  for (const CaseResult& after : b.cases) {
    auto it = in_a.find(after.id);
    const CaseResult* before = it == in_a.end() ? nullptr : it->second;
    if (before == nullptr || before->verdict != after.verdict) {
      diff.changes.push_back(
          {after.id, before ? std::optional(before->verdict) : std::nullopt, after.verdict});
    }
    if (is_failing(after.verdict) && (before == nullptr || !is_failing(before->verdict))) {
      diff.regressions.push_back(after.id);
    }
    const uint64_t now = case_time_us(after);
    // now >= factor * before, without the product that wraps past 2^64.
    if (before != nullptr && now >= kSlowdownFloorUs &&
        case_time_us(*before) <= now / kSlowdownFactor) {
      diff.slowdowns.push_back({after.id, case_time_us(*before), now});
    }
  }
  for (const CaseResult& before : a.cases) {
    if (!in_b.contains(before.id))
      diff.changes.push_back({before.id, before.verdict, std::nullopt});
  }
  return diff;
}

std::string suite_version_warning(const ReportDiff& diff) {
  if (!diff.suite_versions) return "";
  return "warning: the reports are of different suite versions (A: " + diff.suite_versions->first +
         ", B: " + diff.suite_versions->second +
         "); cases and their ids may differ between the suites, so a change below may come "
         "from the suite, not the backend";
}

std::string diff_text(const ReportDiff& diff) {
  std::ostringstream out;
  if (diff.suite_versions) out << suite_version_warning(diff) << "\n";
  out << "status changes: " << diff.changes.size() << "\n";
  for (const StatusChange& c : diff.changes) {
    out << "  " << c.id << ": " << status_text(c.before) << " -> " << status_text(c.after) << "\n";
  }
  out << "at least " << kSlowdownFactor << "x slower (compile + backend, "
      << ms_with_unit(kSlowdownFloorUs) << " or more): " << diff.slowdowns.size() << "\n";
  for (const Slowdown& s : diff.slowdowns) {
    char ratio[32];
    if (s.before_us == 0) {
      std::snprintf(ratio, sizeof ratio, "from 0");
    } else {
      std::snprintf(ratio, sizeof ratio, "%.1fx",
                    static_cast<double>(s.after_us) / static_cast<double>(s.before_us));
    }
    out << "  " << s.id << ": " << ms_with_unit(s.before_us) << " -> " << ms_with_unit(s.after_us)
        << " (" << ratio << ")\n";
  }
  out << "newly failing: " << diff.regressions.size() << "\n";
  for (const std::string& id : diff.regressions) out << "  " << id << "\n";
  return out.str();
}

}  // namespace vyre::certify
