// The dataflow engine's input under the taint contract (seed 000): CSR with
// node_data roles 0 normal, 1 source, 2 sink, 3 source+sink; a metadata word
// per node for the transfer function; the source list; the depth bound.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reference/graph/csr_graph.h"
#include "spec/support/result.h"

namespace vyre::dataflow {

/// Bit of a node_data role that makes a reached node a finding.
inline constexpr uint32_t kSinkRoleBit = 2;
/// Largest node_data value of the taint contract.
inline constexpr uint32_t kMaxTaintRole = 3;

/// One engine run's input.
struct DataflowInput {
  /// node_data holds taint roles 0..3.
  graph::CsrGraph graph;
  /// One word per node, read by the transfer function; empty means all zero.
  std::vector<uint32_t> node_metadata;
  /// Node ids the facts start from.
  std::vector<uint32_t> sources;
  /// Sinks at depth <= max_depth are reported.
  uint32_t max_depth = UINT32_MAX;
  /// Finding rows to hold; 0 means the most there can be (sources x sinks).
  /// When the most there can be exceeds it, the run is rejected before any
  /// dispatch, so findings are never truncated.
  uint32_t max_findings = 0;
};

/// Host-side checks of seed 000's validation that need no backend: malformed
/// CSR, roles past 3, metadata of the wrong length, sources outside the graph,
/// source_count * node_count past u32, and output capacity overflow.
Result<Ok> validate_input(const DataflowInput& input);

/// Number of sink nodes (role bit 2 set).
uint32_t sink_count(const graph::CsrGraph& graph);

/// The finding rows a run needs: input.max_findings, or sources x sinks.
uint64_t finding_capacity(const DataflowInput& input);

/// The engine input equivalent to a graph.bfs labelled graph: roles 0-3 kept,
/// a sanitizer (role 4) becomes a normal node with kSanitizerMetadataBit set,
/// for use with the block_mask transfer function. Errors: invalid labels.
Result<DataflowInput> input_from_bfs_labels(const graph::CsrGraph& labelled,
                                            std::span<const uint32_t> sources, uint32_t max_depth);

}  // namespace vyre::dataflow
