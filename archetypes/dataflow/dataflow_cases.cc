#include "archetypes/dataflow/dataflow_cases.h"

#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/transfer_function.h"
#include "archetypes/graph/archetype_table.h"
#include "spec/ir/host_words.h"

namespace vyre::dataflow {
BufferSet canonical_findings(std::vector<graph::Finding> findings) {
  graph::sort_canonical(findings);
  return {{"findings", to_bytes(graph::findings_to_words(findings))}};
}

Result<BufferSet> DataflowCase::run(Backend& backend) const {
  auto transfer = make_transfer("block_mask");
  if (!transfer) return transfer.error();
  auto engine = DataflowEngine::create(backend, std::move(transfer).value());
  if (!engine) return Error{engine.error().message};
  auto result = engine->run(input);
  if (!result) return Error{result.error().message};
  return canonical_findings(std::move(result->findings));
}

Result<std::vector<DataflowCase>> dataflow_cases() {
  std::vector<DataflowCase> out;
  for (const archetypes::GraphArchetype& row : archetypes::graph_archetypes()) {
    archetypes::GraphInstance instance = row.build();
    if (instance.expected_error) continue;
    auto input = input_from_bfs_labels(instance.graph, instance.sources, instance.params.max_depth);
    if (!input) {
      return Error{"internal error: graph archetype " + std::string(row.name) +
                   " has no engine input: " + input.error().message};
    }
    DataflowCase c;
    c.name = "dataflow/" + std::string(row.name);
    c.input = std::move(input).value();
    c.canonical_expected = canonical_findings(instance.engine_expected.value_or(instance.expected));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace vyre::dataflow
