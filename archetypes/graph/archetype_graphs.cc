#include "archetypes/graph/archetype_graphs.h"

#include <utility>

#include "archetypes/graph/bfs_layout.h"
#include "reference/graph/node_label.h"

namespace vyre::archetypes::graph_archetype {
namespace {

using graph::Edge;
using graph::Finding;
using graph::NodeRole;

/// A graph from edges and (node, role) pairs; other nodes are normal.
graph::CsrGraph make(uint32_t n, const std::vector<Edge>& edges,
                     const std::vector<std::pair<uint32_t, NodeRole>>& roles) {
  graph::CsrGraph g = *graph::try_to_csr(n, edges);
  for (const auto& [node, role] : roles) g.node_data[node] = graph::make_label(role);
  return g;
}

GraphInstance instance(graph::CsrGraph g, std::vector<uint32_t> sources,
                       std::vector<Finding> expected, bfs::BfsParams params = {64, UINT32_MAX}) {
  GraphInstance i;
  i.graph = std::move(g);
  i.sources = std::move(sources);
  i.params = params;
  i.expected = std::move(expected);
  return i;
}

constexpr NodeRole kSource = NodeRole::Source;
constexpr NodeRole kSink = NodeRole::Sink;
constexpr NodeRole kBoth = NodeRole::SourceSink;
constexpr NodeRole kSanitizer = NodeRole::Sanitizer;

/// Hub 0 -> spokes 1..spokes, spoke i -> leaf spokes + i; leaves are sinks.
GraphInstance two_level_fan(uint32_t spokes) {
  std::vector<Edge> edges;
  std::vector<std::pair<uint32_t, NodeRole>> roles = {{0, kSource}};
  for (uint32_t i = 1; i <= spokes; ++i) edges.push_back({0, i});
  for (uint32_t i = 1; i <= spokes; ++i) {
    edges.push_back({i, spokes + i});
    roles.push_back({spokes + i, kSink});
  }
  return instance(make(2 * spokes + 1, edges, roles), {0}, {}, {2 * spokes, 2});
}

/// 64 sources 0..63 on a graph of 2^19 nodes, source s -> sink 2^19 - 1 - s,
/// so every source's bitmap is 16384 words and its last word is touched.
GraphInstance wide_bitmap(uint32_t num_sources) {
  constexpr uint32_t kNodes = uint32_t{1} << 19;
  std::vector<Edge> edges;
  std::vector<std::pair<uint32_t, NodeRole>> roles;
  std::vector<uint32_t> sources;
  std::vector<Finding> expected;
  for (uint32_t s = 0; s < num_sources; ++s) {
    edges.push_back({s, kNodes - 1 - s});
    roles.push_back({s, kSource});
    roles.push_back({kNodes - 1 - s, kSink});
    sources.push_back(s);
    expected.push_back({s, kNodes - 1 - s, 1, s});
  }
  GraphInstance i = instance(make(kNodes, edges, roles), sources, expected, {64, 4});
  Capabilities limits;
  // 64 sources x 16384 words x 4 bytes: the visited_set is exactly this big,
  // and larger than every other buffer (labels 2 MiB, queue 2 MiB).
  limits.max_storage_buffer_bytes = uint64_t{64} * 16384 * 4;
  i.limits = limits;
  return i;
}

}  // namespace

GraphInstance empty_graph() {
  return instance(make(0, {}, {}), {}, {});
}

GraphInstance single_node_self_loop() {
  // A source alone is not a sink; the self-loop finds 0 already visited.
  return instance(make(1, {{0, 0}}, {{0, kSource}}), {0}, {});
}

GraphInstance single_node_self_loop_source_sink() {
  // Source+sink start: (0, 0, 0) once; the self-loop does not repeat it.
  return instance(make(1, {{0, 0}}, {{0, kBoth}}), {0}, {{0, 0, 0, 0}});
}

GraphInstance complete_graph() {
  std::vector<Edge> edges;
  for (uint32_t a = 0; a < 5; ++a) {
    for (uint32_t b = 0; b < 5; ++b) {
      if (a != b) edges.push_back({a, b});
    }
  }
  // Every sink at depth 1 from every source; source 1 reached from source 0
  // (and 0 from 1) is traversed, not reported.
  return instance(make(5, edges, {{0, kSource}, {1, kSource}, {3, kSink}, {4, kSink}}), {0, 1},
                  {{0, 3, 1, 0}, {0, 4, 1, 0}, {1, 3, 1, 1}, {1, 4, 1, 1}});
}

GraphInstance chain() {
  std::vector<Edge> edges;
  for (uint32_t i = 0; i + 1 < 10; ++i) edges.push_back({i, i + 1});
  // Sink k sits at depth k; with max_depth 6, sink 9 is out of reach.
  return instance(make(10, edges, {{0, kSource}, {3, kSink}, {6, kSink}, {9, kSink}}), {0},
                  {{0, 3, 3, 0}, {0, 6, 6, 0}}, {64, 6});
}

GraphInstance star() {
  std::vector<Edge> edges;
  for (uint32_t i = 1; i <= 8; ++i) edges.push_back({0, i});
  // Odd spokes are sinks at depth 1; spoke 2 is a source with no out-edges.
  return instance(
      make(9, edges, {{0, kSource}, {1, kSink}, {2, kSource}, {3, kSink}, {5, kSink}, {7, kSink}}),
      {0, 2}, {{0, 1, 1, 0}, {0, 3, 1, 0}, {0, 5, 1, 0}, {0, 7, 1, 0}});
}

GraphInstance binary_tree() {
  std::vector<Edge> edges;
  for (uint32_t i = 0; i < 7; ++i) {
    edges.push_back({i, 2 * i + 1});
    edges.push_back({i, 2 * i + 2});
  }
  std::vector<std::pair<uint32_t, NodeRole>> roles = {{0, kSource}, {2, kSink}, {4, kSink}};
  // Node 2 is on level 1, node 4 on level 2, leaves 7..14 on level 3.
  std::vector<Finding> expected = {{0, 2, 1, 0}, {0, 4, 2, 0}};
  for (uint32_t leaf = 7; leaf <= 14; ++leaf) {
    roles.push_back({leaf, kSink});
    expected.push_back({0, leaf, 3, 0});
  }
  return instance(make(15, edges, roles), {0}, expected);
}

GraphInstance diamond_dag() {
  // 0 -> 1 -> 3 and 0 -> 2 -> 4 -> 3 merge at 3 (shortest: 2 edges); 3 -> 5.
  // The long branch's edge is listed first, so a depth-first walk would reach
  // 3 at depth 3 and 5 at depth 4; only breadth-first order gives 2 and 3.
  return instance(make(6, {{0, 2}, {0, 1}, {2, 4}, {4, 3}, {1, 3}, {3, 5}},
                       {{0, kSource}, {3, kSink}, {4, kSink}, {5, kSink}}),
                  {0}, {{0, 3, 2, 0}, {0, 4, 2, 0}, {0, 5, 3, 0}});
}

GraphInstance cycle() {
  // 0 -> 1 -> 2 -> 3 -> 0: the BFS ends, and sink 2 is reported once per source.
  return instance(
      make(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}, {{0, kSource}, {1, kSource}, {2, kSink}}), {0, 1},
      {{0, 2, 2, 0}, {1, 2, 1, 1}});
}

GraphInstance disconnected_components() {
  // {0 -> 1 -> 2} and {3 -> 4 -> 5}: no source reaches the other component.
  return instance(make(6, {{0, 1}, {1, 2}, {3, 4}, {4, 5}},
                       {{0, kSource}, {2, kSink}, {3, kSource}, {5, kSink}}),
                  {0, 3}, {{0, 2, 2, 0}, {3, 5, 2, 1}});
}

GraphInstance start_source_sink() {
  // Start 0 is source+sink: (0, 0, 0); then sink 1 at depth 1, whose edge
  // back to 0 finds it visited.
  return instance(make(2, {{0, 1}, {1, 0}}, {{0, kBoth}, {1, kSink}}), {0},
                  {{0, 0, 0, 0}, {0, 1, 1, 0}});
}

GraphInstance max_depth_zero() {
  // max_depth 0: only the start node is reached.
  return instance(make(2, {{0, 1}}, {{0, kBoth}, {1, kSink}}), {0}, {{0, 0, 0, 0}}, {64, 0});
}

GraphInstance sanitizer_only_path() {
  // 0 -> 1 (sanitizer) -> 2 (sink): the sanitizer stops the only path.
  return instance(make(3, {{0, 1}, {1, 2}}, {{0, kSource}, {1, kSanitizer}, {2, kSink}}), {0}, {});
}

GraphInstance sanitizer_one_of_two_paths() {
  // 0 -> 1 (sanitizer) -> 3 is blocked; 0 -> 2 -> 4 -> 3 reaches sink 3 at depth 3.
  return instance(make(5, {{0, 1}, {0, 2}, {1, 3}, {2, 4}, {4, 3}},
                       {{0, kSource}, {1, kSanitizer}, {3, kSink}}),
                  {0}, {{0, 3, 3, 0}});
}

GraphInstance sanitizer_would_be_sink() {
  // Node 1 is a sanitizer whose low label bits hold 2 (a sink's role value in
  // the wrong place): a sanitizer cannot also be a sink. Source 0 reaches it
  // and sink 4; the sanitizer is neither reported nor expanded, so sinks 2 and
  // 3 behind it stay unreached, also when node 1 itself is a start node.
  GraphInstance i =
      instance(make(5, {{0, 1}, {1, 2}, {1, 3}, {0, 4}},
                    {{0, kSource}, {1, kSanitizer}, {2, kSink}, {3, kSink}, {4, kSink}}),
               {0, 1}, {{0, 4, 1, 0}});
  i.graph.node_data[1] |= 2;
  // The engine's sanitizers block entry, and a start node is entered by no
  // edge, so from start 1 both sinks behind it are reached.
  i.engine_expected = std::vector<Finding>{{0, 4, 1, 0}, {1, 2, 1, 1}, {1, 3, 1, 1}};
  return i;
}

GraphInstance frontier_exactly_max_queue() {
  // Level 1 holds exactly kMaxBfsQueue spokes: all are expanded, every leaf
  // is a finding at depth 2 and nothing is dropped.
  GraphInstance i = two_level_fan(bfs::kMaxBfsQueue);
  for (uint32_t s = 1; s <= bfs::kMaxBfsQueue; ++s) {
    i.expected.push_back({0, bfs::kMaxBfsQueue + s, 2, 0});
  }
  return i;
}

GraphInstance frontier_max_queue_plus_one() {
  // Level 1 has kMaxBfsQueue + 1 spokes; the hub's edges are scanned in order,
  // so spoke kMaxBfsQueue + 1 finds its level full: dropped and counted, and
  // its leaf (the last node) is never reached. The engine keeps no queue.
  constexpr uint32_t kSpokes = bfs::kMaxBfsQueue + 1;
  GraphInstance i = two_level_fan(kSpokes);
  for (uint32_t s = 1; s <= bfs::kMaxBfsQueue; ++s) i.expected.push_back({0, kSpokes + s, 2, 0});
  i.expected_queue_overflow = 1;
  std::vector<Finding> all = i.expected;
  all.push_back({0, 2 * kSpokes, 2, 0});
  i.engine_expected = all;
  return i;
}

GraphInstance max_findings_overflow() {
  // Ten sink spokes, room for four rows: the count reaches 10 and the four
  // written rows are members of the ten.
  std::vector<Edge> edges;
  std::vector<std::pair<uint32_t, NodeRole>> roles = {{0, kSource}};
  std::vector<Finding> expected;
  for (uint32_t i = 1; i <= 10; ++i) {
    edges.push_back({0, i});
    roles.push_back({i, kSink});
    expected.push_back({0, i, 1, 0});
  }
  return instance(make(11, edges, roles), {0}, expected, {4, UINT32_MAX});
}

GraphInstance visited_at_buffer_limit() {
  return wide_bitmap(64);
}

GraphInstance visited_past_buffer_limit() {
  // One source more: 65 x 16384 x 4 = 4259840 bytes of visited_set.
  GraphInstance i = wide_bitmap(65);
  i.expected_error = "visited_set needs 4259840 bytes";
  return i;
}

}  // namespace vyre::archetypes::graph_archetype
