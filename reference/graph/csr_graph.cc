#include "reference/graph/csr_graph.h"

#include <algorithm>
#include <string>

namespace vyre::graph {
namespace {

std::string str(uint64_t v) {
  return std::to_string(v);
}

Error csr_error(std::string_view invariant, const std::string& problem, std::string_view fix) {
  return Error{"CSR graph invalid (invariant: " + std::string(invariant) + "): " + problem +
               ". Fix: " + std::string(fix) + "."};
}

Result<Ok> check_node_count(uint32_t node_count) {
  if (node_count <= kMaxCsrNodes) return Ok{};
  return csr_error("node_count <= " + str(kMaxCsrNodes),
                   "node_count = " + str(node_count) + " is past the host limit of " +
                       str(kMaxCsrNodes) + " nodes (offsets alone would need " +
                       str((uint64_t{node_count} + 1) * 4) + " bytes)",
                   "declare the number of nodes the graph really has");
}

Result<CsrGraph> build(uint32_t node_count, std::span<const Edge> edges, bool reject_invalid) {
  if (auto ok = check_node_count(node_count); !ok) return ok.error();
  // Offsets are u32, so the kept edges must fit in one.
  if (edges.size() > UINT32_MAX) {
    return csr_error("edge_count <= 4294967295",
                     "the edge list has " + str(edges.size()) + " edges",
                     "split the graph; CSR offsets are 32-bit");
  }
  CsrGraph g;
  g.node_count = node_count;
  g.offsets.assign(size_t{node_count} + 1, 0);
  g.node_data.assign(node_count, 0);
  auto in_range = [&](const Edge& e) { return e.from < node_count && e.to < node_count; };
  for (size_t i = 0; i < edges.size(); ++i) {
    if (in_range(edges[i])) {
      ++g.offsets[edges[i].from + 1];
    } else if (reject_invalid) {
      return csr_error("every edge end < node_count",
                       "edges[" + str(i) + "] = (" + str(edges[i].from) + ", " + str(edges[i].to) +
                           ") has an end outside the valid range [0, " + str(node_count) + ")",
                       "drop or fix that edge, or use to_csr to omit invalid edges");
    }
  }
  for (uint32_t n = 0; n < node_count; ++n) g.offsets[n + 1] += g.offsets[n];
  g.targets.resize(g.offsets[node_count]);
  // Fill each node's range in input order, so edge order is stable.
  std::vector<uint32_t> cursor(g.offsets.begin(), g.offsets.end() - 1);
  for (const Edge& e : edges) {
    if (in_range(e)) g.targets[cursor[e.from]++] = e.to;
  }
  return g;
}

}  // namespace

std::span<const uint32_t> CsrGraph::neighbors(uint32_t node) const {
  return std::span<const uint32_t>(targets).subspan(offsets[node],
                                                    offsets[node + 1] - offsets[node]);
}

Result<Ok> CsrGraph::validate() const {
  const uint64_t want_offsets = uint64_t{node_count} + 1;
  if (offsets.size() != want_offsets) {
    return csr_error("offsets.len() == node_count + 1",
                     "offsets has " + str(offsets.size()) + " entries but node_count = " +
                         str(node_count) + " needs exactly " + str(want_offsets),
                     "declare node_count = offsets.len() - 1, or give one offset per node "
                     "plus the final edge count");
  }
  if (offsets[0] != 0) {
    return csr_error("offsets[0] == 0",
                     "offsets[0] = " + str(offsets[0]) + "; the only valid value is 0",
                     "start the offsets array at 0");
  }
  const uint64_t edges = targets.size();
  for (size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      return csr_error("offsets is non-decreasing",
                       "offsets[" + str(i) + "] = " + str(offsets[i]) + " is less than offsets[" +
                           str(i - 1) + "] = " + str(offsets[i - 1]) + "; valid range is [" +
                           str(offsets[i - 1]) + ", " + str(edges) + "]",
                       "offsets must be a running total of out-degrees");
    }
    if (offsets[i] > edges) {
      return csr_error("offsets[i] <= targets.len()",
                       "offsets[" + str(i) + "] = " + str(offsets[i]) +
                           " points past the end of targets (" + str(edges) +
                           " entries); valid range is [" + str(offsets[i - 1]) + ", " + str(edges) +
                           "]",
                       "make every offset at most the number of edges");
    }
  }
  if (offsets[node_count] != edges) {
    return csr_error("offsets[node_count] == targets.len()",
                     "offsets[" + str(node_count) + "] = " + str(offsets[node_count]) +
                         " but targets has " + str(edges) + " entries; the only valid value is " +
                         str(edges),
                     "end the offsets array with the edge count, or drop the extra targets");
  }
  for (size_t e = 0; e < targets.size(); ++e) {
    if (targets[e] >= node_count) {
      // The owning node is the last one whose range starts at or before e.
      const auto owner = std::upper_bound(offsets.begin(), offsets.end(), e) - offsets.begin() - 1;
      return csr_error("every target < node_count",
                       "targets[" + str(e) + "] = " + str(targets[e]) + " (an edge of node " +
                           str(owner) + ") is out of range; valid range is [0, " + str(node_count) +
                           ")",
                       "point every edge at an existing node, or raise node_count");
    }
  }
  if (node_data.size() != node_count) {
    return csr_error(
        "node_data.len() == node_count",
        "node_data has " + str(node_data.size()) + " entries but node_count = " + str(node_count),
        "give exactly one label word per node");
  }
  return Ok{};
}

Result<CsrGraph> to_csr(uint32_t node_count, std::span<const Edge> edges) {
  return build(node_count, edges, false);
}

Result<CsrGraph> try_to_csr(uint32_t node_count, std::span<const Edge> edges) {
  return build(node_count, edges, true);
}

}  // namespace vyre::graph
