#include "certify/suite/graph_suite_cases.h"

#include <memory>
#include <optional>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/transfer_function.h"
#include "archetypes/graph/bfs_layout.h"

namespace vyre::certify {
namespace {

HostPrepared prepare_dataflow(Backend& backend,
                              std::shared_ptr<const dataflow::DataflowInput> input) {
  auto transfer = dataflow::make_transfer("block_mask");
  if (!transfer) return {Status::Error, transfer.error().message, {}};
  auto engine = dataflow::DataflowEngine::create(backend, std::move(transfer).value());
  if (!engine) return {Status::CompileError, engine.error().message, {}};
  if (auto checked = engine->check(*input); !checked) {
    // The input is past this backend's probed limits.
    return {Status::NotSupported, checked.error().message, {}};
  }
  auto shared = std::make_shared<const dataflow::DataflowEngine>(std::move(engine).value());
  return {Status::Ok, "", [shared, input]() -> HostObservation {
            auto result = shared->run(*input);
            // The engine's errors carry no status; the runner takes the
            // backend's own answer from its StatusWatch.
            if (!result) return {Status::Error, result.error().message, {}};
            return {Status::Ok, "", dataflow::canonical_findings(std::move(result->findings))};
          }};
}

ByteBuffer words(const std::vector<uint32_t>& values) {
  ByteBuffer out;
  out.reserve(values.size() * 4);
  for (uint32_t v : values) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  return out;
}

/// The engine's input as little-endian u32 buffers, for a failure's record.
BufferSet engine_input_buffers(const dataflow::DataflowInput& in) {
  return {{"graph.node_count", words({in.graph.node_count})},
          {"graph.offsets", words(in.graph.offsets)},
          {"graph.targets", words(in.graph.targets)},
          {"graph.node_data", words(in.graph.node_data)},
          {"node_metadata", words(in.node_metadata)},
          {"sources", words(in.sources)},
          {"max_depth", words({in.max_depth})},
          {"max_findings", words({in.max_findings})}};
}

}  // namespace

SuiteCase bfs_suite_case(std::string id, Level level, std::string oracle,
                         archetypes::GraphCase graph_case) {
  auto shared = std::make_shared<const archetypes::GraphCase>(std::move(graph_case));
  SuiteCase c;
  c.id = std::move(id);
  c.level = level;
  c.oracle = std::move(oracle);
  c.test_case = shared->test_case;
  // Each invocation clears its own visited bitmap, so poisoning it checks
  // that the program does not depend on zeroed scratch.
  c.poisonable = std::vector<std::string>{std::string(archetypes::bfs::kFindings),
                                          std::string(archetypes::bfs::kVisitedSet)};
  // graph.bfs returns at once for invocations past the sources on x and for
  // any invocation off the first row on y and z.
  c.spare_workgroups = {1, 1, 1};
  c.canonicalize = [shared](const BufferSet& raw) { return shared->canonicalize(raw); };
  c.compare = [shared](const BufferSet&, const BufferSet& observed) {
    return shared->compare(observed);
  };
  // A repro compares as `compare` does: the reference's own rows would be
  // one admissible answer among several past max_findings, and its raw
  // bytes one admissible order.
  c.replay = ReplayComparison::GraphBfs;
  c.replay_expected = shared->canonical_expected;
  return c;
}

SuiteCase dataflow_suite_case(std::string id, Level level, std::string oracle,
                              dataflow::DataflowInput input, BufferSet expected) {
  auto shared = std::make_shared<const dataflow::DataflowInput>(std::move(input));
  SuiteCase c;
  c.id = std::move(id);
  c.level = level;
  c.oracle = std::move(oracle);
  c.host_driven = [shared](Backend& backend) { return prepare_dataflow(backend, shared); };
  c.host_expected = std::move(expected);
  c.host_inputs = engine_input_buffers(*shared);
  return c;
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
