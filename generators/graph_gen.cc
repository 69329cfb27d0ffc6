#include "generators/graph_gen.h"

#include <algorithm>
#include <array>
#include <utility>

#include "reference/graph/node_label.h"
#include "reference/graph/reachability.h"

namespace vyre::gen {
namespace {

using graph::Edge;
using graph::NodeRole;

using Recipe = GraphRecipe;

/// How many of kRoleRolls rolls each role takes, in roll order.
struct RoleShare {
  uint32_t rolls;
  NodeRole role;
};

constexpr std::array kRoleShares = {
    RoleShare{12, NodeRole::Normal}, RoleShare{3, NodeRole::Source}, RoleShare{3, NodeRole::Sink},
    RoleShare{1, NodeRole::SourceSink}, RoleShare{2, NodeRole::Sanitizer}};
static_assert(12 + 3 + 3 + 1 + 2 == kRoleRolls, "kRoleShares covers every roll once");

/// Uniform random roles and sources leave about half the samples without a
/// finding, which a parity check cannot tell apart from a traversal that
/// reaches nothing. Planting makes sure there is a source and gives one node
/// that source reaches the sink role, preferring a node past the start. The
/// planted node's depth is unchanged: it depends only on the nodes before it.
void plant_finding(const Recipe& r, GraphSample& s) {
  if (s.sources.empty()) s.sources.push_back(r.raw_sink % r.nodes);
  // The oracle lists what the first source reaches nearest first, the start
  // node itself first of all.
  const uint32_t first = s.sources.front();
  const Result<graph::Reachability> reach =
      graph::reachable_nodes(s.graph, std::span(&first, 1), {.max_depth = r.max_depth});
  if (!reach.ok() || reach->reached.empty()) return;
  const std::vector<graph::ReachedNode>& reached = reach->reached;
  const uint32_t pick = reached.size() > 1 ? reached[1 + r.raw_sink % (reached.size() - 1)].node
                                           : reached.front().node;
  uint32_t& label = s.graph.node_data[pick];
  const NodeRole role = *graph::role_from_bits(graph::role_bits(label));
  if (graph::reports_finding(role)) return;
  const NodeRole sink = role == NodeRole::Source ? NodeRole::SourceSink : NodeRole::Sink;
  label = graph::make_label(sink, static_cast<uint16_t>(label));
}

std::vector<Edge> sparse_edges(const Recipe& r) {
  std::vector<Edge> edges;
  for (const auto& [a, b] : r.raw_edges) edges.push_back({a % r.nodes, b % r.nodes});
  return edges;
}

/// Each new node links to 1-3 endpoints of earlier edges, chosen by the raw
/// numbers, so popular nodes gain edges faster (preferential attachment).
std::vector<Edge> power_law_edges(const Recipe& r) {
  std::vector<Edge> edges;
  std::vector<uint32_t> endpoints = {0};
  size_t raw = 0;
  auto next_raw = [&]() {
    const auto& e = r.raw_edges;
    const uint32_t v =
        e.empty() ? 0
                  : (raw % 2 == 0 ? e[(raw / 2) % e.size()].first : e[(raw / 2) % e.size()].second);
    ++raw;
    return v;
  };
  for (uint32_t node = 1; node < r.nodes; ++node) {
    const uint32_t links = 1 + next_raw() % 3;
    for (uint32_t k = 0; k < links; ++k) {
      const uint32_t hub = endpoints[next_raw() % endpoints.size()];
      // Alternate directions so hubs have both in- and out-edges.
      edges.push_back(k % 2 == 0 ? Edge{node, hub} : Edge{hub, node});
      endpoints.push_back(hub);
      endpoints.push_back(node);
    }
  }
  return edges;
}

std::vector<Edge> dag_edges(const Recipe& r) {
  std::vector<Edge> edges;
  for (const auto& [a, b] : r.raw_edges) {
    const uint32_t x = a % r.nodes, y = b % r.nodes;
    if (x != y) edges.push_back({std::min(x, y), std::max(x, y)});
  }
  return edges;
}

std::vector<Edge> chain_edges(const Recipe& r) {
  std::vector<Edge> edges;
  for (uint32_t i = 0; i + 1 < r.nodes; ++i) edges.push_back({i, i + 1});
  // A few forward shortcuts make some depths shorter than the path position.
  for (size_t k = 0; k < r.raw_edges.size() && k < 4; ++k) {
    const uint32_t x = r.raw_edges[k].first % r.nodes, y = r.raw_edges[k].second % r.nodes;
    if (x < y) edges.push_back({x, y});
  }
  return edges;
}

/// All ordered pairs but the few the raw edges name, which shrink away.
std::vector<Edge> clique_edges(const Recipe& r) {
  std::vector<Edge> missing;
  for (const auto& [a, b] : r.raw_edges) missing.push_back({a % r.nodes, b % r.nodes});
  std::vector<Edge> edges;
  for (uint32_t a = 0; a < r.nodes; ++a) {
    for (uint32_t b = 0; b < r.nodes; ++b) {
      if (a == b) continue;
      if (std::find(missing.begin(), missing.end(), Edge{a, b}) == missing.end()) {
        edges.push_back({a, b});
      }
    }
  }
  return edges;
}

struct ShapeRow {
  GraphShape shape;
  std::string_view name;
  uint32_t max_nodes;
  std::vector<Edge> (*edges)(const Recipe&);
};

constexpr std::array kShapes = {
    ShapeRow{GraphShape::SparseRandom, "sparse_random", 64, sparse_edges},
    ShapeRow{GraphShape::PowerLaw, "power_law", 64, power_law_edges},
    ShapeRow{GraphShape::Dag, "dag", 64, dag_edges},
    ShapeRow{GraphShape::LongChain, "long_chain", 300, chain_edges},
    ShapeRow{GraphShape::DenseClique, "dense_clique", 20, clique_edges},
};

constexpr std::array kShapeValues = {GraphShape::SparseRandom, GraphShape::PowerLaw,
                                     GraphShape::Dag, GraphShape::LongChain,
                                     GraphShape::DenseClique};

const ShapeRow& row_of(GraphShape shape) {
  return kShapes[static_cast<size_t>(shape)];
}

}  // namespace

GraphSample build_graph_sample(GraphShape shape, const GraphRecipe& recipe) {
  Recipe r = recipe;
  r.nodes = std::max<uint32_t>(r.nodes, 1);
  const std::vector<Edge> edges = row_of(shape).edges(r);
  GraphSample s;
  // Every edge end is reduced modulo the node count, so nothing is dropped.
  s.graph = *graph::to_csr(r.nodes, edges);
  for (uint32_t n = 0; n < r.nodes && n < r.roles.size(); ++n) {
    s.graph.node_data[n] = graph::make_label(r.roles[n], static_cast<uint16_t>(n));
  }
  for (uint32_t raw : r.raw_sources) s.sources.push_back(raw % r.nodes);
  s.max_depth = r.max_depth;
  s.shape = row_of(shape).name;
  if (r.plant) plant_finding(r, s);
  return s;
}

GraphRecipe draw_graph_recipe(GraphShape shape, Prng& prng, int size) {
  const uint64_t bound = static_cast<uint64_t>(std::max(size, 0));
  GraphRecipe r;
  r.nodes = static_cast<uint32_t>(prng.between(1, max_nodes_of(shape)));
  r.raw_edges.resize(prng.between(0, bound));
  for (auto& [a, b] : r.raw_edges) {
    a = prng.next_u32();
    b = prng.next_u32();
  }
  r.roles.resize(prng.between(0, bound));
  for (NodeRole& role : r.roles) role = role_of_roll(static_cast<uint32_t>(prng.below(kRoleRolls)));
  r.raw_sources.resize(prng.between(0, std::min<uint64_t>(8, bound)));
  for (uint32_t& raw : r.raw_sources) raw = prng.next_u32();
  r.max_depth = prng.chance(3, 5) ? UINT32_MAX : static_cast<uint32_t>(prng.between(0, 8));
  r.plant = prng.chance(4, 5);
  r.raw_sink = prng.next_u32();
  return r;
}

GraphSample draw_graph_sample(GraphShape shape, Prng& prng, int size) {
  return build_graph_sample(shape, draw_graph_recipe(shape, prng, size));
}

NodeRole role_of_roll(uint32_t roll) {
  roll %= kRoleRolls;
  for (const RoleShare& share : kRoleShares) {
    if (roll < share.rolls) return share.role;
    roll -= share.rolls;
  }
  return NodeRole::Normal;
}

uint32_t max_nodes_of(GraphShape shape) {
  return row_of(shape).max_nodes;
}

std::span<const GraphShape> all_graph_shapes() {
  return kShapeValues;
}

std::string_view name_of(GraphShape shape) {
  return row_of(shape).name;
}

void showValue(const GraphSample& s, std::ostream& os) {
  os << "GraphSample{shape=" << s.shape << ", nodes=" << s.graph.node_count << ", edges=[";
  for (uint32_t n = 0; n < s.graph.node_count; ++n) {
    for (uint32_t t : s.graph.neighbors(n)) os << n << "->" << t << " ";
  }
  os << "], roles=[";
  for (uint32_t n = 0; n < s.graph.node_count; ++n) {
    const NodeRole role = *graph::role_from_bits(graph::role_bits(s.graph.node_data[n]));
    if (role != NodeRole::Normal) os << n << ":" << graph::name_of(role) << " ";
  }
  os << "], sources=[";
  for (uint32_t src : s.sources) os << src << " ";
  os << "], max_depth=" << s.max_depth << "}";
}

}  // namespace vyre::gen
