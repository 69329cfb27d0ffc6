// graph.bfs and the dataflow engine on the Vulkan backend (lavapipe in CI):
// every archetype judged in canonical form against its hand-written verdict.
// Labelled "vulkan" in CTest; without a Vulkan device these tests fail.
#include <gtest/gtest.h>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/graph/archetype_cases.h"
#include "backends/registry.h"

namespace vyre::archetypes {
namespace {

std::unique_ptr<Backend> vulkan() {
  auto backend = make_backend("vulkan");
  EXPECT_TRUE(backend.ok()) << backend.error().message;
  if (!backend) return nullptr;
  const Capabilities caps = (*backend)->probe();
  EXPECT_TRUE(caps.unavailable.empty()) << caps.unavailable;
  return caps.unavailable.empty() ? std::move(backend).value() : nullptr;
}

TEST(GraphOnVulkan, GraphBfsMeetsEveryArchetypeVerdict) {
  auto backend = vulkan();
  ASSERT_NE(backend, nullptr);
  auto cases = graph_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  for (const GraphCase& c : *cases) {
    CompileOutcome compiled = backend->compile(c.test_case.program);
    ASSERT_EQ(compiled.status, Status::Ok) << c.test_case.name << ": " << compiled.message;
    DispatchOutcome run =
        backend->dispatch(*compiled.program, c.test_case.inputs, c.test_case.grid);
    ASSERT_EQ(run.status, Status::Ok) << c.test_case.name << ": " << run.message;
    const auto diff = c.compare(c.canonicalize(run.outputs));
    EXPECT_EQ(diff, std::nullopt) << c.test_case.name << ": " << *diff;
  }
}

TEST(GraphOnVulkan, DataflowEngineMeetsEveryArchetypeVerdict) {
  auto backend = vulkan();
  ASSERT_NE(backend, nullptr);
  auto cases = dataflow::dataflow_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  for (const dataflow::DataflowCase& c : *cases) {
    auto observed = c.run(*backend);
    ASSERT_TRUE(observed.ok()) << c.name << ": " << observed.error().message;
    EXPECT_EQ(*observed, c.canonical_expected) << c.name;
  }
}

}  // namespace
}  // namespace vyre::archetypes
