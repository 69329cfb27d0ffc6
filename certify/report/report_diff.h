// `vyre-certify diff A.json B.json`: what changed from report A to report B,
// case by case: statuses, cases in one only, and cases that got much slower.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "certify/report/report.h"

namespace vyre::certify {

/// A case whose status differs; nullopt where the report does not hold the case.
struct StatusChange {
  std::string id;
  std::optional<Verdict> before;
  std::optional<Verdict> after;
};

/// A case at least kSlowdownFactor slower in B (compile plus backend time).
struct Slowdown {
  std::string id;
  uint64_t before_us = 0;
  uint64_t after_us = 0;
};

/// How much slower a case must be to be listed.
inline constexpr uint64_t kSlowdownFactor = 2;
/// Cases faster than this in B are never listed: their times are noise.
inline constexpr uint64_t kSlowdownFloorUs = 1000;

/// The differences from `a` to `b`.
struct ReportDiff {
  /// In B's case order, then the cases only in A in A's order.
  std::vector<StatusChange> changes;
  std::vector<Slowdown> slowdowns;
  /// Cases failing in B (is_failing) that did not fail in A, absent from A included.
  std::vector<std::string> regressions;
  /// A's and B's suite versions when they differ: the same id may then name
  /// another case, so the diff warns.
  std::optional<std::pair<std::string, std::string>> suite_versions;
};

/// Compares the two reports' cases by id.
ReportDiff diff_reports(const Report& a, const Report& b);

/// The warning that the two reports are of different suite versions;
/// empty when they are of the same one.
std::string suite_version_warning(const ReportDiff& diff);

/// The diff as text, one line per change, after the suite-version warning
/// when there is one; says so when nothing changed.
std::string diff_text(const ReportDiff& diff);

}  // namespace vyre::certify
