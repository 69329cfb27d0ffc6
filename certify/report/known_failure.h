// A case a gate expects to fail (from a gate file or a baseline report): a
// run fails the gate only on failures not listed, and reports a listed case
// that now passes as fixed.
#pragma once

#include <string>

namespace vyre::certify {

/// One expected failure: the case, why it fails, and where it is tracked.
struct KnownFailure {
  /// Case id, exactly as report.json names it ("L3/graph.bfs/empty_graph").
  std::string case_id;
  /// Why it fails (gate file), or where it was seen failing (baseline).
  std::string reason;
  /// Optional link to the bug tracker; empty when none.
  std::string link;
};

}  // namespace vyre::certify
