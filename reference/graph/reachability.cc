#include "reference/graph/reachability.h"

#include <optional>
#include <string>

#include "reference/graph/node_label.h"

namespace vyre::graph {
namespace {

NodeRole role_at(const CsrGraph& graph, uint32_t node) {
  // Labels are validated before any traversal, so the role is defined.
  return *role_from_bits(role_bits(graph.node_data[node]));
}

Result<Ok> check_sources(const CsrGraph& graph, std::span<const uint32_t> sources) {
  if (sources.size() >= UINT32_MAX) {
    return Error{"reachability query invalid: " + std::to_string(sources.size()) +
                 " sources; source_idx is 32-bit. Fix: split the source list."};
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i] >= graph.node_count) {
      return Error{"reachability query invalid: source_nodes[" + std::to_string(i) + "] = " +
                   std::to_string(sources[i]) + " is outside the graph; valid range is [0, " +
                   std::to_string(graph.node_count) + "). Fix: name an existing node."};
    }
  }
  return Ok{};
}

}  // namespace

Result<Reachability> reachable_nodes(const CsrGraph& graph, std::span<const uint32_t> sources,
                                     const ReachOptions& options) {
  if (auto ok = graph.validate(); !ok) return ok.error();
  if (auto ok = validate_labels(graph.node_data); !ok) return ok.error();
  if (auto ok = check_sources(graph, sources); !ok) return ok.error();

  struct Queued {
    uint32_t node;
    uint32_t depth;
  };
  Reachability out;
  // visited_by[n] == source_idx + 1 marks n visited by the current source,
  // so the flags never need clearing between sources.
  std::vector<uint32_t> visited_by(graph.node_count, 0);
  std::vector<Queued> queue;
  for (uint32_t idx = 0; idx < sources.size(); ++idx) {
    const uint32_t mark = idx + 1;
    const uint32_t start = sources[idx];
    visited_by[start] = mark;
    out.reached.push_back({idx, start, start, 0});
    queue.clear();
    if (expands(role_at(graph, start)) && options.max_depth > 0) queue.push_back({start, 0});
    uint32_t filling_depth = 1;
    uint32_t filling_count = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
      const Queued at = queue[head];
      for (uint32_t target : graph.neighbors(at.node)) {
        ++out.edges_scanned;
        if (visited_by[target] == mark) continue;
        visited_by[target] = mark;
        const uint32_t depth = at.depth + 1;
        out.reached.push_back({idx, start, target, depth});
        if (!expands(role_at(graph, target)) || depth >= options.max_depth) continue;
        if (depth != filling_depth) {
          filling_depth = depth;
          filling_count = 0;
        }
        if (filling_count >= options.level_capacity) {
          ++out.dropped;
          continue;
        }
        ++filling_count;
        queue.push_back({target, depth});
      }
    }
  }
  return out;
}

std::vector<Finding> findings_of(const CsrGraph& graph, const Reachability& reachability) {
  std::vector<Finding> out;
  for (const ReachedNode& r : reachability.reached) {
    // The caller may pass another graph than the query's, so neither the node
    // id nor its label is trusted here.
    if (r.node >= graph.node_data.size()) continue;
    const std::optional<NodeRole> role = role_from_bits(role_bits(graph.node_data[r.node]));
    if (role && reports_finding(*role)) {
      out.push_back({r.source_node, r.node, r.depth, r.source_idx});
    }
  }
  sort_canonical(out);
  return out;
}

}  // namespace vyre::graph
