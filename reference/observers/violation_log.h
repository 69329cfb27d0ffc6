// Keeps an observer's violations, the first kMaxReportedViolations in full and
// the rest as a count summarised in one final violation.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "reference/observers/observer.h"
#include "spec/support/diagnostic_text.h"

namespace vyre::reference {

/// A capped list of violations of one kind.
class ViolationLog {
 public:
  explicit ViolationLog(Violation::Kind kind) : kind_(kind) {}

  /// Whether the next violation would still be reported in full (callers
  /// skip building messages once it is false).
  bool wants_detail() const { return kept_.size() < kMaxReportedViolations; }
  /// Records one violation.
  void add(Violation v) {
    if (wants_detail()) {
      kept_.push_back(std::move(v));
    } else {
      ++dropped_;
    }
  }
  /// Counts one violation without its details.
  void count() { ++dropped_; }
  /// Appends the kept violations and, if any were dropped, a summary.
  void append_to(std::vector<Violation>& out) const {
    out.insert(out.end(), kept_.begin(), kept_.end());
    if (dropped_ == 0) return;
    Violation summary;
    summary.kind = kind_;
    summary.message = std::to_string(dropped_) + " more " + std::string(name_of(kind_)) +
                      " violations were found and not listed (only the first " +
                      std::to_string(kMaxReportedViolations) + " are reported in full)";
    out.push_back(std::move(summary));
  }

 private:
  Violation::Kind kind_;
  std::vector<Violation> kept_;
  uint64_t dropped_ = 0;
};

/// "line L:C" or "a node built in code" for messages.
inline std::string where_text(SourceLoc loc) {
  if (!loc.known()) return "a node built in code (no source location)";
  return "line " + line_col(loc);
}

}  // namespace vyre::reference
