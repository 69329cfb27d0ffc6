// L4 generated graphs (backend archetype X2, random inputs everywhere):
// graph.bfs and the dataflow engine on graphs drawn from the seed, judged
// against the CPU oracles (reachable_nodes for graph.bfs, the engine's CPU
// twin for the engine), never against the backend or the interpreter alone.
#pragma once

#include <cstdint>
#include <vector>

#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// Samples of every generator shape (sparse, power-law, DAG, long chain,
/// dense clique) plus R-MAT graphs with the Graph500 parameters, all drawn
/// from `seed`; ids "L4/graph.bfs/..." and "L4/dataflow/...".
std::vector<SuiteCase> generated_graph_cases(uint64_t seed);

}  // namespace vyre::certify
