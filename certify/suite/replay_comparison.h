// How a repro file's outputs are compared when `vyre-certify run` replays it.
// Most cases compare bytes; graph.bfs compares canonical findings (pinned
// spec section 7: the order of findings, scratch buffers and the choice of
// rows past max_findings are the backend's), which a case file records on a
// comment line the text parser skips: `# vyre-certify compare: graph.bfs`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "spec/ir/test_case.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// How observed outputs are judged against a case's expectation.
enum class ReplayComparison {
  Bytes,     ///< Every expected buffer byte for byte, no other output.
  GraphBfs,  ///< Expected holds graph.bfs's canonical full finding set.
};

/// The comment line that names `mode` in a case file ("" for Bytes).
std::string comparison_line(ReplayComparison mode);

/// The comparison a case file's text names; Bytes when it names none. An
/// Error names an unknown mode.
Result<ReplayComparison> comparison_named_in(std::string_view case_text);

/// Why `observed` (a backend's raw graph.bfs outputs) fails `test_case`'s
/// expectation, the canonical full finding set, under pinned spec section 7's
/// rule; nullopt when it holds.
std::optional<std::string> graph_bfs_difference(const TestCase& test_case,
                                                const BufferSet& observed);

}  // namespace vyre::certify
