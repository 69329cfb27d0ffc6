#include "archetypes/graph/archetype_cases.h"

#include "archetypes/graph/bfs_program.h"

namespace vyre::archetypes {

BufferSet GraphCase::canonicalize(const BufferSet& raw_outputs) const {
  auto canon = bfs::canonical_bfs_outputs(raw_outputs, dispatch);
  return canon ? std::move(canon).value() : BufferSet{};
}

std::optional<std::string> GraphCase::compare(const BufferSet& canonical_observed) const {
  return bfs::compare_bfs_outputs(canonical_expected, canonical_observed,
                                  dispatch.params.max_findings);
}

Result<GraphCase> make_bfs_case(const std::string& name, const graph::CsrGraph& graph,
                                std::span<const uint32_t> sources, const bfs::BfsParams& params,
                                std::vector<graph::Finding> expected,
                                uint32_t expected_queue_overflow, const Capabilities* limits) {
  auto dispatch = bfs::prepare_bfs(graph, sources, params, limits);
  if (!dispatch) return dispatch.error();
  GraphCase c;
  c.test_case.name = "graph.bfs/" + name;
  c.test_case.program = bfs::graph_bfs_program();
  c.test_case.grid = dispatch->grid;
  c.test_case.inputs = dispatch->inputs;
  c.dispatch = std::move(dispatch).value();
  c.canonical_expected = bfs::expected_bfs_outputs(std::move(expected), expected_queue_overflow);
  return c;
}

namespace {

Result<GraphCase> case_of(const GraphArchetype& archetype, GraphInstance instance) {
  if (instance.expected_error) {
    return Error{"archetype " + std::string(archetype.name) + " is a rejection case (expects: " +
                 *instance.expected_error + "); it has no dispatch"};
  }
  return make_bfs_case(std::string(archetype.name), instance.graph, instance.sources,
                       instance.params, std::move(instance.expected),
                       instance.expected_queue_overflow,
                       instance.limits ? &*instance.limits : nullptr);
}

}  // namespace

Result<GraphCase> make_graph_case(const GraphArchetype& archetype) {
  return case_of(archetype, archetype.build());
}

Result<std::vector<GraphCase>> graph_cases() {
  std::vector<GraphCase> out;
  for (const GraphArchetype& row : graph_archetypes()) {
    GraphInstance instance = row.build();
    if (instance.expected_error) continue;
    auto c = case_of(row, std::move(instance));
    if (!c) {
      return Error{"internal error: graph archetype " + std::string(row.name) +
                   " does not prepare: " + c.error().message};
    }
    out.push_back(std::move(c).value());
  }
  return out;
}

}  // namespace vyre::archetypes
