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
            if (!result) return {Status::Error, result.error().message, {}};
            return {Status::Ok, "", dataflow::canonical_findings(std::move(result->findings))};
          }};
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
      out.push_back(bfs_suite_case(std::move(id), Level::L3, std::string(kOracle), std::move(gc)));
    }
  }
  auto engine_cases = dataflow::dataflow_cases();
  if (!engine_cases) {
    out.push_back(broken_case("L3/dataflow/archetypes", Level::L3, engine_cases.error().message));
  } else {
    for (dataflow::DataflowCase& dc : *engine_cases) {
      out.push_back(dataflow_suite_case("L3/" + dc.name, Level::L3, std::string(kOracle),
                                        std::move(dc.input), std::move(dc.canonical_expected)));
    }
  }
  return out;
}

}  // namespace vyre::certify
