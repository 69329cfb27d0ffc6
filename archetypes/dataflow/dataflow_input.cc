#include "archetypes/dataflow/dataflow_input.h"

#include <string>

#include "archetypes/dataflow/transfer_function.h"
#include "reference/graph/node_label.h"

namespace vyre::dataflow {
namespace {

Error input_rejected(const std::string& problem, const std::string& fix) {
  return Error{"dataflow input rejected: " + problem + ". Fix: " + fix + "."};
}

}  // namespace

uint32_t sink_count(const graph::CsrGraph& graph) {
  uint32_t n = 0;
  for (uint32_t role : graph.node_data) n += (role & kSinkRoleBit) != 0 ? 1 : 0;
  return n;
}

uint64_t finding_capacity(const DataflowInput& input) {
  if (input.max_findings != 0) return input.max_findings;
  return uint64_t{input.sources.size()} * sink_count(input.graph);
}

Result<Ok> validate_input(const DataflowInput& input) {
  const graph::CsrGraph& g = input.graph;
  if (auto ok = g.validate(); !ok) return ok.error();
  for (size_t n = 0; n < g.node_data.size(); ++n) {
    if (g.node_data[n] > kMaxTaintRole) {
      return input_rejected(
          "node_data[" + std::to_string(n) + "] = " + std::to_string(g.node_data[n]) +
              " is not a taint role; valid values are 0 normal, 1 source, 2 sink, "
              "3 source+sink",
          "encode sanitizers through node_metadata and the transfer function");
    }
  }
  if (!input.node_metadata.empty() && input.node_metadata.size() != g.node_count) {
    return input_rejected("node_metadata has " + std::to_string(input.node_metadata.size()) +
                              " words but the graph has " + std::to_string(g.node_count) + " nodes",
                          "give one metadata word per node, or none");
  }
  for (size_t i = 0; i < input.sources.size(); ++i) {
    if (input.sources[i] >= g.node_count) {
      return input_rejected(
          "sources[" + std::to_string(i) + "] = " + std::to_string(input.sources[i]) +
              " is outside the graph; valid range is [0, " + std::to_string(g.node_count) + ")",
          "list only existing nodes as sources");
    }
  }
  const uint64_t pairs = uint64_t{input.sources.size()} * g.node_count;
  if (pairs > UINT32_MAX) {
    return input_rejected(
        "source_count * node_count = " + std::to_string(input.sources.size()) + " x " +
            std::to_string(g.node_count) + " = " + std::to_string(pairs) + " overflows u32",
        "run at most " + std::to_string(g.node_count ? UINT32_MAX / g.node_count : 0) +
            " sources per run");
  }
  const uint64_t most = uint64_t{input.sources.size()} * sink_count(g);
  if (input.max_findings != 0 && most > input.max_findings) {
    return input_rejected("output capacity overflow: up to " + std::to_string(most) +
                              " findings (" + std::to_string(input.sources.size()) + " sources x " +
                              std::to_string(sink_count(g)) +
                              " sinks) but max_findings = " + std::to_string(input.max_findings),
                          "raise max_findings to " + std::to_string(most) +
                              " (or 0 for automatic), or run "
                              "fewer sources");
  }
  if (finding_capacity(input) * 4 > (uint64_t{1} << 32)) {
    return input_rejected("output capacity overflow: " + std::to_string(finding_capacity(input)) +
                              " finding rows need more than 2^32 words",
                          "run fewer sources per run");
  }
  return Ok{};
}

Result<DataflowInput> input_from_bfs_labels(const graph::CsrGraph& labelled,
                                            std::span<const uint32_t> sources, uint32_t max_depth) {
  if (auto ok = graph::validate_labels(labelled.node_data); !ok) return ok.error();
  DataflowInput in;
  in.graph = labelled;
  in.node_metadata.assign(labelled.node_data.size(), 0);
  for (size_t n = 0; n < labelled.node_data.size(); ++n) {
    const graph::NodeRole role = *graph::role_from_bits(graph::role_bits(labelled.node_data[n]));
    const bool sanitizer = role == graph::NodeRole::Sanitizer;
    in.graph.node_data[n] = sanitizer ? 0 : static_cast<uint32_t>(role);
    in.node_metadata[n] = sanitizer ? kSanitizerMetadataBit : 0;
  }
  in.sources.assign(sources.begin(), sources.end());
  in.max_depth = max_depth;
  return in;
}

}  // namespace vyre::dataflow
