// A directed graph in compressed sparse row form (seeds 000 and 001): the
// out-edges of node n are targets[offsets[n] .. offsets[n + 1]).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "spec/support/result.h"

namespace vyre::graph {

/// One directed edge.
struct Edge {
  uint32_t from = 0;
  uint32_t to = 0;
  bool operator==(const Edge&) const = default;
};

/// Largest node count the host side builds: offsets of 2^28 + 1 words take
/// 1 GiB, past which a declared count is far more likely a mistake than a graph.
inline constexpr uint32_t kMaxCsrNodes = uint32_t{1} << 28;

/// CSR arrays plus one metadata word per node (the label, for graph.bfs).
struct CsrGraph {
  uint32_t node_count = 0;
  /// node_count + 1 entries, non-decreasing, from 0 to targets.size().
  std::vector<uint32_t> offsets = {0};
  /// Edge targets, each < node_count.
  std::vector<uint32_t> targets;
  /// One word per node: a graph.bfs label or a dataflow role (0..3).
  std::vector<uint32_t> node_data;

  /// Number of edges (targets.size()).
  uint32_t edge_count() const { return static_cast<uint32_t>(targets.size()); }
  /// The out-neighbours of `node`; only meaningful on a graph that validates.
  std::span<const uint32_t> neighbors(uint32_t node) const;
  /// Checks every structural invariant; the error names the invariant, the
  /// array position and the valid range.
  Result<Ok> validate() const;

  bool operator==(const CsrGraph&) const = default;
};

/// Builds a CSR graph from edges, silently dropping every edge whose end is
/// outside 0..node_count (seed 001's robustness choice); node_data is zeroed.
/// Fails only when node_count exceeds kMaxCsrNodes.
Result<CsrGraph> to_csr(uint32_t node_count, std::span<const Edge> edges);

/// Like to_csr, but an out-of-range edge is an error naming it.
Result<CsrGraph> try_to_csr(uint32_t node_count, std::span<const Edge> edges);

}  // namespace vyre::graph
