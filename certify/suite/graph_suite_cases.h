// Graph workloads as suite cases: graph.bfs (one dispatch, findings compared
// in canonical form) and the dataflow engine (host-driven, one dispatch per
// BFS level), for the archetypes of L3 and the generated graphs of L4.
#pragma once

#include <string>
#include <vector>

#include "archetypes/dataflow/dataflow_input.h"
#include "archetypes/graph/archetype_cases.h"
#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// graph.bfs on one graph: canonical findings judged against `graph_case`'s
/// expectation (pinned spec section 7's rule past max_findings), outputs and
/// visited bitmaps poisoned, and an over-dispatched grid on every axis.
SuiteCase bfs_suite_case(std::string id, Level level, std::string oracle,
                         archetypes::GraphCase graph_case);

/// The dataflow engine (block_mask transfer) on one input: canonical findings
/// equal to `expected` (dataflow::canonical_findings). The engine's programs
/// are compiled once per case run, then the engine runs `--runs` times.
SuiteCase dataflow_suite_case(std::string id, Level level, std::string oracle,
                              dataflow::DataflowInput input, BufferSet expected);

/// L3: graph.bfs and the dataflow engine on every dispatching archetype of
/// archetypes/graph, with the hand-computed expectations of the table.
std::vector<SuiteCase> graph_archetype_cases();

}  // namespace vyre::certify
