// Community taint rules in TOML (seed 000): source labels, sink labels,
// sanitizer patterns and transfer-function parameters. Rules only shape the
// engine's inputs (node_data roles, node_metadata, sources, the transfer
// function); they never change IR semantics. The schema is in RULES_TOML.md.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "archetypes/dataflow/dataflow_input.h"
#include "archetypes/dataflow/transfer_function.h"
#include "reference/graph/csr_graph.h"
#include "spec/support/result.h"

namespace vyre::dataflow {

/// A parsed and checked rules file.
struct Rules {
  std::string name;
  uint32_t max_depth = UINT32_MAX;
  /// Label vocabulary: kind name -> the kind id graphs carry per node.
  std::map<std::string, uint32_t, std::less<>> kinds;
  /// Kind names whose nodes are sources / sinks.
  std::vector<std::string> sources;
  std::vector<std::string> sinks;
  /// Glob patterns (* and ?) over kind names; matching nodes are sanitizers.
  std::vector<std::string> sanitizers;
  std::string transfer_function = "block_mask";
  TransferParams transfer_params;
};

/// The schema version this reader accepts.
inline constexpr int64_t kRulesSchema = 1;

/// Parses rules text. Errors carry `origin:line:col` and a fix: malformed
/// TOML, unknown or missing keys, wrong value types, ids past u32, duplicate
/// kind ids, roles naming unknown kinds, sanitizer patterns matching no kind,
/// unknown transfer functions or parameters, and sanitizers the chosen
/// transfer function would ignore.
Result<Rules> parse_rules(std::string_view toml_text, std::string_view origin = "<rules>");

/// Reads and parses a rules file.
Result<Rules> load_rules(const std::string& path);

/// True when `kind_name` matches glob `pattern` (* any run, ? one character).
bool glob_match(std::string_view pattern, std::string_view kind_name);

/// The engine input for `graph` whose node n has kind id node_kinds[n]:
/// node_data roles from sources/sinks, kSanitizerMetadataBit on sanitizers,
/// every source-kind node as a source (ascending), max_depth from the rules.
/// Kind ids not named in the rules make normal nodes. The graph's own
/// node_data is replaced. Errors: a graph that fails CsrGraph::validate()
/// (node_data included), node_kinds of the wrong length.
Result<DataflowInput> apply_rules(const Rules& rules, const graph::CsrGraph& graph,
                                  std::span<const uint32_t> node_kinds);

/// The transfer function the rules name.
Result<TransferFunction> transfer_of(const Rules& rules);

}  // namespace vyre::dataflow
