// A call graph for the dataflow engine in TOML (format in RULES_TOML.md):
// one kind id per node, an edge list and, optionally, the expected findings.
// With a rules file (rules_toml.h) it becomes a DataflowInput, so
// `vyre-certify run --rules R --graph G` can run any hand-written graph.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "archetypes/dataflow/dataflow_input.h"
#include "reference/graph/csr_graph.h"
#include "reference/graph/finding.h"
#include "spec/support/result.h"

namespace vyre::dataflow {

/// One expected finding as the file writes it.
struct ExpectedFinding {
  uint32_t source = 0;
  uint32_t sink = 0;
  uint32_t depth = 0;
};

/// A parsed graph file.
struct GraphFile {
  /// The edges in CSR; node_data all zero (apply_rules fills the roles).
  graph::CsrGraph graph;
  /// The kind id of each node, for apply_rules.
  std::vector<uint32_t> node_kinds;
  /// The `expect` list; nullopt when the file has none (compare with the
  /// engine's CPU twin instead). An empty list expects no finding.
  std::optional<std::vector<ExpectedFinding>> expect;
};

/// Parses graph text. Errors carry `origin:line:col`, the offending key and a
/// fix: malformed TOML, unknown or missing keys, wrong types, ids past u32,
/// edge ends outside the graph.
Result<GraphFile> parse_graph_file(std::string_view toml_text, std::string_view origin = "<graph>");

/// Reads and parses a graph file.
Result<GraphFile> load_graph_file(const std::string& path);

/// The expected findings of `file` as engine rows for `input` (source_idx is
/// the source's position in input.sources), canonical order. Errors: an
/// expected source that is not one of input.sources.
Result<std::vector<graph::Finding>> expected_findings(const std::vector<ExpectedFinding>& expect,
                                                      const DataflowInput& input);

}  // namespace vyre::dataflow
