// graph.reachability's CPU reference (seed 001): a plain FIFO queue and
// visited flags per source, written apart from the graph.bfs IR program so it
// can serve as that program's conformance oracle.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reference/graph/csr_graph.h"
#include "reference/graph/finding.h"
#include "spec/support/result.h"

namespace vyre::graph {

/// Bounds of one reachability query.
struct ReachOptions {
  /// Nodes at depth <= max_depth are reached; only nodes at depth < max_depth
  /// are expanded.
  uint32_t max_depth = UINT32_MAX;
  /// Nodes kept for expansion per BFS level and source; a node found when its
  /// level is full is still reached but never expanded, and is counted as
  /// dropped. graph.bfs uses kMaxBfsQueue; the default means "no limit".
  uint32_t level_capacity = UINT32_MAX;
};

/// One node reached from one source.
struct ReachedNode {
  uint32_t source_idx = 0;
  uint32_t source_node = 0;
  uint32_t node = 0;
  /// Edges on the shortest path from the source.
  uint32_t depth = 0;
  bool operator==(const ReachedNode&) const = default;
};

/// Everything a query reached, per source in BFS order.
struct Reachability {
  std::vector<ReachedNode> reached;
  /// Nodes not expanded because their level was full (see level_capacity).
  uint64_t dropped = 0;
  /// Out-edges examined, for traversed-edges-per-second figures.
  uint64_t edges_scanned = 0;
};

/// Every (source, node, depth) with node reachable from the source within
/// max_depth, node roles read from graph.node_data as graph.bfs labels: a
/// sanitizer is reached but never expanded (a sanitizer start node included).
/// Errors: a graph or label that fails validation, a source outside the graph.
Result<Reachability> reachable_nodes(const CsrGraph& graph, std::span<const uint32_t> sources,
                                     const ReachOptions& options = {});

/// The graph.bfs findings of a query: its reached nodes whose role is sink or
/// source+sink, in canonical order. Meant for the graph the query ran on; on
/// any other graph a reached node outside it or with a reserved role is no
/// finding (never undefined behaviour).
std::vector<Finding> findings_of(const CsrGraph& graph, const Reachability& reachability);

}  // namespace vyre::graph
