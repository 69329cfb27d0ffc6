#include "certify/suite/graph_suite_cases.h"

#include <memory>
#include <optional>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/transfer_function.h"
#include "archetypes/graph/bfs_layout.h"
#include "spec/ir/host_words.h"

namespace vyre::certify {
namespace {

HostPrepared prepare_dataflow(Backend& backend,
                              std::shared_ptr<const dataflow::DataflowInput> input) {
  auto transfer = dataflow::make_transfer("block_mask");
  if (!transfer) return {Status::Error, transfer.error().message, {}};
  auto engine = dataflow::DataflowEngine::create(backend, std::move(transfer).value());
  if (!engine) return {engine.error().status, engine.error().message, {}};
  if (auto checked = engine->check(*input); !checked) {
    return {checked.error().status, checked.error().message, {}};
  }
  auto shared = std::make_shared<const dataflow::DataflowEngine>(std::move(engine).value());
  return {Status::Ok, "", [shared, input]() -> HostObservation {
            auto result = shared->run(*input);
            // The engine's errors carry the backend's own answer (timeout,
            // device lost, bad output, ...), so verdicts stay distinct.
            if (!result) return {result.error().status, result.error().message, {}};
            return {Status::Ok, "", dataflow::canonical_findings(std::move(result->findings))};
          }};
}

/// The engine's input as little-endian u32 buffers, for a failure's record.
BufferSet engine_input_buffers(const dataflow::DataflowInput& in) {
  return {{"graph.node_count", to_bytes({in.graph.node_count})},
          {"graph.offsets", to_bytes(in.graph.offsets)},
          {"graph.targets", to_bytes(in.graph.targets)},
          {"graph.node_data", to_bytes(in.graph.node_data)},
          {"node_metadata", to_bytes(in.node_metadata)},
          {"sources", to_bytes(in.sources)},
          {"max_depth", to_bytes({in.max_depth})},
          {"max_findings", to_bytes({in.max_findings})}};
}

}  // namespace

SuiteCase bfs_suite_case(std::string id, Level level, std::string oracle,
                         archetypes::GraphCase graph_case) {
  DispatchCase d;
  d.test_case = std::move(graph_case.test_case);
  // Judged against the canonical full finding set, never the reference's
  // bytes: those are one admissible order, and past max_findings one
  // admissible subset, among several.
  d.test_case.expected = std::move(graph_case.canonical_expected);
  d.test_case.comparison = Comparison::GraphBfs;
  // Each invocation clears its own visited bitmap, so poisoning it checks
  // that the program does not depend on zeroed scratch.
  d.poisonable = std::vector<std::string>{std::string(archetypes::bfs::kFindings),
                                          std::string(archetypes::bfs::kVisitedSet)};
  // graph.bfs returns at once for invocations past the sources on x and for
  // any invocation off the first row on y and z.
  d.spare_workgroups = {1, 1, 1};
  return SuiteCase{std::move(id), level, std::move(oracle), {}, std::move(d)};
}

SuiteCase dataflow_suite_case(std::string id, Level level, std::string oracle,
                              dataflow::DataflowInput input, BufferSet expected) {
  auto shared = std::make_shared<const dataflow::DataflowInput>(std::move(input));
  HostCase host;
  host.work =
      host_work(id, [shared](Backend& backend) { return prepare_dataflow(backend, shared); });
  host.expected = std::move(expected);
  host.inputs = engine_input_buffers(*shared);
  return SuiteCase{std::move(id), level, std::move(oracle), {}, std::move(host)};
}

std::vector<SuiteCase> graph_archetype_cases() {
  constexpr std::string_view kOracle = "hand-computed findings";
  std::vector<SuiteCase> out;
  auto bfs_cases = archetypes::graph_cases();
  if (!bfs_cases) {
    out.push_back(broken_case("L3/graph.bfs/archetypes", Level::L3, bfs_cases.error().message));
  } else {
    for (archetypes::GraphCase& gc : *bfs_cases) {
      std::string id = "L3/" + gc.test_case.name;
      InputRecipe recipe{"archetypes::graph_cases(), archetype " + gc.test_case.name, {}};
      out.push_back(bfs_suite_case(std::move(id), Level::L3, std::string(kOracle), std::move(gc)));
      out.back().input_recipe = std::move(recipe);
    }
  }
  auto engine_cases = dataflow::dataflow_cases();
  if (!engine_cases) {
    out.push_back(broken_case("L3/dataflow/archetypes", Level::L3, engine_cases.error().message));
  } else {
    for (dataflow::DataflowCase& dc : *engine_cases) {
      InputRecipe recipe{"dataflow::dataflow_cases(), archetype " + dc.name, {}};
      out.push_back(dataflow_suite_case("L3/" + dc.name, Level::L3, std::string(kOracle),
                                        std::move(dc.input), std::move(dc.canonical_expected)));
      out.back().input_recipe = std::move(recipe);
    }
  }
  return out;
}

}  // namespace vyre::certify
