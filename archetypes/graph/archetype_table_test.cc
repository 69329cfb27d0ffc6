#include "archetypes/graph/archetype_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <set>
#include <string>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/graph/archetype_cases.h"
#include "archetypes/graph/bfs_layout.h"
#include "backends/registry/registry.h"
#include "reference/graph/reachability.h"
#include "reference/interpreter.h"
#include "spec/ir/host_words.h"

namespace vyre::archetypes {
namespace {

using ::testing::HasSubstr;

// The archetypes seed 001 and the brief name, listed here by hand so a row
// cannot silently disappear from the table.
TEST(GraphArchetypes, TableHasEveryRequiredArchetypeOnce) {
  const std::set<std::string_view> required = {
      "empty_graph",
      "single_node_self_loop",
      "complete_graph",
      "chain",
      "star",
      "binary_tree",
      "diamond_dag",
      "cycle",
      "disconnected_components",
      "sanitizer_only_path",
      "sanitizer_one_of_two_paths",
      "sanitizer_would_be_sink",
      "frontier_exactly_max_queue",
      "frontier_max_queue_plus_one",
      "max_findings_overflow",
      "visited_at_buffer_limit",
      "visited_past_buffer_limit",
  };
  std::set<std::string_view> names;
  for (const GraphArchetype& row : graph_archetypes()) {
    EXPECT_TRUE(names.insert(row.name).second) << "duplicate " << row.name;
    EXPECT_FALSE(row.description.empty()) << row.name;
    EXPECT_EQ(find_graph_archetype(row.name), &row);
  }
  for (std::string_view name : required) EXPECT_TRUE(names.contains(name)) << name;
  EXPECT_EQ(find_graph_archetype("no_such_archetype"), nullptr);
}

}  // namespace

/// Names the archetype in test output.
void PrintTo(const GraphArchetype& row, std::ostream* os) {
  *os << row.name;
}

namespace {

/// The rows that dispatch (every row but the rejection cases).
std::vector<GraphArchetype> dispatching_archetypes() {
  std::vector<GraphArchetype> rows;
  for (const GraphArchetype& row : graph_archetypes()) {
    if (!row.build().expected_error) rows.push_back(row);
  }
  return rows;
}

class EveryArchetype : public ::testing::TestWithParam<GraphArchetype> {};
class DispatchingArchetype : public ::testing::TestWithParam<GraphArchetype> {};

// Two independent sources agree: the hand-written expectation and the CPU
// oracle (plain queue, level capacity MAX_BFS_QUEUE).
TEST_P(EveryArchetype, HandWrittenVerdictMatchesTheCpuOracle) {
  const GraphInstance i = GetParam().build();
  auto reach = graph::reachable_nodes(
      i.graph, i.sources, {.max_depth = i.params.max_depth, .level_capacity = bfs::kMaxBfsQueue});
  ASSERT_TRUE(reach.ok()) << reach.error().message;
  std::vector<graph::Finding> expected = i.expected;
  graph::sort_canonical(expected);
  EXPECT_EQ(graph::findings_of(i.graph, *reach), expected);
  EXPECT_EQ(reach->dropped, i.expected_queue_overflow);
}

TEST_P(EveryArchetype, PreparesOrFailsAsTheTableSays) {
  const GraphInstance i = GetParam().build();
  auto d = bfs::prepare_bfs(i.graph, i.sources, i.params, i.limits ? &*i.limits : nullptr);
  if (i.expected_error) {
    ASSERT_FALSE(d.ok());
    EXPECT_THAT(d.error().message, HasSubstr(*i.expected_error));
    EXPECT_THAT(d.error().message, HasSubstr("Fix:"));
    EXPECT_FALSE(make_graph_case(GetParam()).ok());
  } else {
    EXPECT_TRUE(d.ok()) << d.error().message;
  }
}

// graph.bfs on the reference interpreter, judged in canonical form against
// the hand-written verdict, with every non-conformance check on: the schedule
// probes ask that every schedule give the same canonical findings (or, past
// max_findings, findings that all meet the verdict).
TEST_P(DispatchingArchetype, GraphBfsOnTheInterpreterMeetsTheVerdict) {
  auto c = make_graph_case(GetParam());
  ASSERT_TRUE(c.ok()) << c.error().message;
  reference::RunOptions options;
  options.strict_oob = true;
  options.same_result = [&c](const BufferSet& a, const BufferSet& b) {
    const BufferSet canon_a = c->canonicalize(a);
    const BufferSet canon_b = c->canonicalize(b);
    return canon_a == canon_b || (!c->compare(canon_a) && !c->compare(canon_b));
  };
  auto run = reference::run(c->test_case.program, c->test_case.inputs, c->test_case.grid, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_TRUE(run->conforming()) << run->violations.front().message;
  const BufferSet canon = c->canonicalize(run->outputs);
  EXPECT_EQ(c->compare(canon), std::nullopt) << *c->compare(canon);
}

// The dataflow engine on the reference backend (through dataflow_cases, the
// form a certification run uses), against the same verdict where the
// contracts overlap and the row's engine_expected where they differ.
TEST_P(DispatchingArchetype, DataflowEngineOnTheReferenceBackendMeetsTheVerdict) {
  static const auto cases = dataflow::dataflow_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  const std::string name = "dataflow/" + std::string(GetParam().name);
  const auto it = std::find_if(cases->begin(), cases->end(),
                               [&](const dataflow::DataflowCase& c) { return c.name == name; });
  ASSERT_NE(it, cases->end()) << name;
  auto backend = make_backend("reference");
  ASSERT_TRUE(backend.ok()) << backend.error().message;
  auto observed = it->run(**backend);
  ASSERT_TRUE(observed.ok()) << observed.error().message;
  const GraphInstance i = GetParam().build();
  std::vector<graph::Finding> expected = i.engine_expected.value_or(i.expected);
  graph::sort_canonical(expected);
  EXPECT_EQ(graph::findings_from_words(to_words(observed->at("findings")), UINT32_MAX), expected);
  EXPECT_EQ(*observed, it->canonical_expected);
}

INSTANTIATE_TEST_SUITE_P(GraphArchetypes, EveryArchetype,
                         ::testing::ValuesIn(graph_archetypes().begin(), graph_archetypes().end()),
                         [](const auto& info) { return std::string(info.param.name); });
INSTANTIATE_TEST_SUITE_P(GraphArchetypes, DispatchingArchetype,
                         ::testing::ValuesIn(dispatching_archetypes()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(GraphArchetypes, CasesCoverEveryDispatchingRow) {
  auto cases = graph_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  size_t rejecting = 0;
  for (const GraphArchetype& row : graph_archetypes())
    rejecting += row.build().expected_error ? 1 : 0;
  EXPECT_EQ(cases->size() + rejecting, graph_archetypes().size());
  auto engine_cases = dataflow::dataflow_cases();
  ASSERT_TRUE(engine_cases.ok()) << engine_cases.error().message;
  // One engine case per dispatching archetype, plus the example rules file's
  // web handler (dataflow/web_handler).
  EXPECT_EQ(engine_cases->size(), cases->size() + 1);
  EXPECT_TRUE(std::any_of(engine_cases->begin(), engine_cases->end(),
                          [](const auto& c) { return c.name == "dataflow/web_handler"; }));
  for (const GraphCase& c : *cases) {
    EXPECT_THAT(c.test_case.name, ::testing::StartsWith("graph.bfs/"));
    EXPECT_FALSE(c.test_case.expected.has_value());
    EXPECT_EQ(c.test_case.grid, c.dispatch.grid);
  }
}

}  // namespace
}  // namespace vyre::archetypes
