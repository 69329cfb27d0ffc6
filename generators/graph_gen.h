// Labelled CSR graphs with source sets, for the graph.bfs and dataflow parity
// properties and for the certification run's L4 inputs. Every shape is built
// from a recipe of plain numbers (node count, raw edge ends, raw roles, raw
// sources) reduced modulo the node count, so any number gives a valid graph.
// Two drawers fill a recipe: draw_graph_sample with the suite's own Prng (so
// `--seed` names the same graphs forever, whatever library is installed) and
// graph_gen_rc.h's RapidCheck generators (so counterexamples shrink to a
// handful of nodes). Both go through build_graph_sample, the one
// implementation of each shape.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/prng.h"
#include "reference/graph/csr_graph.h"
#include "reference/graph/node_label.h"

namespace vyre::gen {

/// A generated graph.bfs input.
struct GraphSample {
  /// node_data holds graph.bfs labels with roles 0-4.
  graph::CsrGraph graph;
  std::vector<uint32_t> sources;
  uint32_t max_depth = UINT32_MAX;
  /// Which generator made it, for counterexample output.
  std::string_view shape;
};

/// The graph families the generators cover.
enum class GraphShape : uint8_t {
  SparseRandom,  ///< up to 64 nodes, random edges (self-loops, duplicates included)
  PowerLaw,      ///< preferential attachment, a few hubs of high degree
  Dag,           ///< edges only from lower to higher node ids
  LongChain,     ///< a path of up to 300 nodes plus a few forward shortcuts
  DenseClique,   ///< up to 20 nodes, nearly all ordered pairs connected
};

/// The plain numbers a sample is made of; any values are valid.
struct GraphRecipe {
  /// Node count, 1 to max_nodes_of(shape) (0 is read as 1).
  uint32_t nodes = 1;
  /// Edge ends before reduction modulo `nodes`; how they become edges is the
  /// shape's own rule.
  std::vector<std::pair<uint32_t, uint32_t>> raw_edges;
  /// Roles of the first nodes; nodes past the list stay Normal.
  std::vector<graph::NodeRole> roles;
  /// Sources before reduction modulo `nodes` (repeats allowed).
  std::vector<uint32_t> raw_sources;
  uint32_t max_depth = UINT32_MAX;
  /// Whether the sample is steered to hold a finding: at least one source,
  /// and a node the first source reaches within max_depth made a sink.
  bool plant = true;
  /// Picks the planted sink among the nodes the first source reaches.
  uint32_t raw_sink = 0;
};

/// Roles are drawn as a roll uniform in [0, kRoleRolls): Normal most often,
/// then Source, Sink, Sanitizer and SourceSink (12:3:3:2:1). Roll 0 is
/// Normal, so RapidCheck shrinks roles towards it.
inline constexpr uint32_t kRoleRolls = 21;

/// The role a roll stands for (rolls past the range wrap).
graph::NodeRole role_of_roll(uint32_t roll);

/// Every shape, in table order.
std::span<const GraphShape> all_graph_shapes();

/// "sparse_random", "power_law", ...
std::string_view name_of(GraphShape shape);

/// The largest node count of a shape (64, 64, 64, 300, 20).
uint32_t max_nodes_of(GraphShape shape);

/// The graph of `shape` that `recipe` describes (labels are make_label(role,
/// node id)), with its finding planted when recipe.plant is set.
GraphSample build_graph_sample(GraphShape shape, const GraphRecipe& recipe);

/// A recipe drawn from `prng`, for the certification run. `size` (1-100)
/// bounds the list lengths as RapidCheck's size does: nodes uniform in
/// [1, max_nodes_of(shape)]; 0 to `size` raw edges and roles; 0 to
/// min(8, size) raw sources; max_depth unbounded 3 times in 5, else 0-8;
/// plant 4 times in 5. Documented in generators/GRAPHS.md; changing the
/// draw order changes every L4 input for a seed.
GraphRecipe draw_graph_recipe(GraphShape shape, Prng& prng, int size);

/// build_graph_sample(shape, draw_graph_recipe(shape, prng, size)).
GraphSample draw_graph_sample(GraphShape shape, Prng& prng, int size);

/// Prints a sample as its edge list, roles, sources and depth bound.
void showValue(const GraphSample& sample, std::ostream& os);

}  // namespace vyre::gen
