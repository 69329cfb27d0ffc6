// graph.bfs and the dataflow engine on the Vulkan backend (lavapipe in CI):
// every archetype's canonical output must be exactly the reference
// interpreter's canonical bytes and meet its hand-written verdict; graph.bfs
// also runs with its scratch and output buffers poisoned. Labelled "vulkan"
// in CTest; without a Vulkan device these tests fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/graph/archetype_cases.h"
#include "archetypes/graph/bfs_layout.h"
#include "backends/registry/registry.h"

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

std::unique_ptr<Backend> reference() {
  auto backend = make_backend("reference");
  EXPECT_TRUE(backend.ok()) << backend.error().message;
  return backend ? std::move(backend).value() : nullptr;
}

/// Byte the poisoned runs fill graph.bfs's scratch and output buffers with.
constexpr uint8_t kPoison = 0xAB;

/// `inputs` with the buffers graph.bfs must overwrite before reading (visited
/// bitmaps, queue) or only writes (finding rows) filled with kPoison; the
/// counters it accumulates into keep their zeros.
BufferSet poisoned(BufferSet inputs) {
  for (std::string_view name : {bfs::kVisitedSet, bfs::kQueue, bfs::kFindings}) {
    ByteBuffer& bytes = inputs.at(std::string(name));
    std::fill(bytes.begin(), bytes.end(), kPoison);
  }
  return inputs;
}

/// Canonical outputs of one compiled dispatch on `backend`; empty (and a test
/// failure) when it does not run.
BufferSet canonical_run(Backend& backend, const GraphCase& c, const BufferSet& inputs,
                        const std::string& where) {
  CompileOutcome compiled = backend.compile(c.test_case.program);
  EXPECT_EQ(compiled.status, Status::Ok) << where << ": " << compiled.message;
  if (compiled.status != Status::Ok) return {};
  DispatchOutcome run = backend.dispatch(*compiled.program, inputs, c.test_case.grid);
  EXPECT_EQ(run.status, Status::Ok) << where << ": " << run.message;
  if (run.status != Status::Ok) return {};
  return c.canonicalize(run.outputs);
}

TEST(GraphOnVulkan, GraphBfsGivesTheReferenceBytesAndMeetsEveryVerdict) {
  auto backend = vulkan();
  ASSERT_NE(backend, nullptr);
  auto interpreter = reference();
  ASSERT_NE(interpreter, nullptr);
  auto cases = graph_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  int poisoned_runs = 0;
  for (const GraphCase& c : *cases) {
    const std::vector<std::pair<std::string, BufferSet>> variants = {
        {"as given", c.test_case.inputs}, {"poisoned", poisoned(c.test_case.inputs)}};
    for (const auto& [label, inputs] : variants) {
      const std::string where = c.test_case.name + " (" + label + ")";
      const BufferSet expected = canonical_run(*interpreter, c, inputs, where + " on reference");
      const BufferSet observed = canonical_run(*backend, c, inputs, where + " on vulkan");
      ASSERT_FALSE(expected.empty()) << where;
      EXPECT_EQ(observed, expected) << where << ": vulkan's canonical bytes differ from the "
                                    << "reference interpreter's";
      const auto diff = c.compare(observed);
      EXPECT_EQ(diff, std::nullopt) << where << ": " << diff.value_or("");
      poisoned_runs += label == "poisoned" ? 1 : 0;
    }
  }
  EXPECT_EQ(poisoned_runs, static_cast<int>(cases->size()));
}

TEST(GraphOnVulkan, DataflowEngineGivesTheReferenceBytesAndMeetsEveryVerdict) {
  auto backend = vulkan();
  ASSERT_NE(backend, nullptr);
  auto interpreter = reference();
  ASSERT_NE(interpreter, nullptr);
  auto cases = dataflow::dataflow_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  for (const dataflow::DataflowCase& c : *cases) {
    auto expected = c.run(*interpreter);
    ASSERT_TRUE(expected.ok()) << c.name << " on reference: " << expected.error().message;
    auto observed = c.run(*backend);
    ASSERT_TRUE(observed.ok()) << c.name << ": " << observed.error().message;
    EXPECT_EQ(*observed, *expected) << c.name << ": differs from the reference interpreter";
    EXPECT_EQ(*observed, c.canonical_expected) << c.name;
  }
}

}  // namespace
}  // namespace vyre::archetypes
