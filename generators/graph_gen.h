// RapidCheck generators of labelled CSR graphs with source sets, for the
// graph.bfs and dataflow parity properties. Every shape is built from a
// recipe of plain numbers (node count, raw edge ends, raw roles, raw sources)
// reduced modulo the node count, so any shrink of any number is still a valid
// graph and counterexamples shrink to a handful of nodes.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string_view>
#include <vector>

#include <rapidcheck.h>

#include "reference/graph/csr_graph.h"

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

/// Every shape, in table order.
std::span<const GraphShape> all_graph_shapes();

/// "sparse_random", "power_law", ...
std::string_view name_of(GraphShape shape);

/// Graphs of one shape with random roles (normal most often), 0-8 sources
/// (repeats allowed) and a max_depth that is unbounded or 0-8. Four samples
/// in five are steered to hold a finding: at least one source, and a node
/// that source reaches within max_depth made a sink.
rc::Gen<GraphSample> graph_sample(GraphShape shape);

/// Any shape.
rc::Gen<GraphSample> any_graph_sample();

/// Prints a sample as its edge list, roles, sources and depth bound.
void showValue(const GraphSample& sample, std::ostream& os);

}  // namespace vyre::gen
