// R-MAT graphs (Chakrabarti, Zhan, Faloutsos 2004) with the Graph500
// parameters a = 0.57, b = 0.19, c = 0.19, d = 0.05, seeded and reproducible
// on every platform: drawn from the suite's own Prng (generators/prng.h), no
// std distributions.
#pragma once

#include <cstdint>
#include <vector>

#include "reference/graph/csr_graph.h"

namespace vyre::gen {

/// What to generate.
struct RmatSpec {
  /// 2^scale nodes.
  uint32_t scale = 12;
  /// edge_factor * 2^scale directed edges (duplicates and self-loops kept).
  uint32_t edge_factor = 8;
  uint64_t seed = 1;
};

/// The edges of an R-MAT graph, node ids randomly permuted (as Graph500 does,
/// so hubs are not clustered at low ids).
std::vector<graph::Edge> rmat_edges(const RmatSpec& spec);

/// An R-MAT graph in CSR with graph.bfs labels: about 1 node in 64 a sink and
/// 1 in 128 a sanitizer, chosen by the seed.
graph::CsrGraph rmat_graph(const RmatSpec& spec);

/// `count` distinct source nodes with at least one out-edge, chosen by the seed.
std::vector<uint32_t> rmat_sources(const graph::CsrGraph& graph, uint32_t count, uint64_t seed);

}  // namespace vyre::gen
