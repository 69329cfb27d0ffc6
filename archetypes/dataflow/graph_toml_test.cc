// Graph files (graph_toml.h), the embedded rule files and the engine cases
// built from them: errors point at file:line:col and name the key, and the
// rules-labelled archetypes equal the code path they replace.
#include "archetypes/dataflow/graph_toml.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/dataflow/dataflow_oracle.h"
#include "archetypes/dataflow/embedded_files.h"
#include "archetypes/dataflow/rules_toml.h"
#include "archetypes/graph/archetype_table.h"
#include "spec/ir/host_words.h"

namespace vyre::dataflow {
namespace {

using ::testing::HasSubstr;

void expect_graph_error(std::string_view text, const std::string& key, uint32_t line) {
  auto r = parse_graph_file(text, "g.toml");
  ASSERT_FALSE(r.ok()) << "expected an error about " << key;
  EXPECT_EQ(r.error().loc.line, line) << r.error().message;
  EXPECT_THAT(r.error().message, HasSubstr("g.toml:" + std::to_string(line) + ":"));
  EXPECT_THAT(r.error().message, HasSubstr(key));
  EXPECT_THAT(r.error().message, HasSubstr("Fix:"));
}

TEST(GraphToml, ParsesNodesEdgesAndExpect) {
  auto g = parse_graph_file(
      "nodes = [1, 0, 2]\nedges = [[0, 1], [1, 2]]\n[[expect]]\nsource = 0\nsink = 2\ndepth = 2\n");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->node_kinds, (std::vector<uint32_t>{1, 0, 2}));
  EXPECT_EQ(g->graph.offsets, (std::vector<uint32_t>{0, 1, 2, 2}));
  EXPECT_EQ(g->graph.targets, (std::vector<uint32_t>{1, 2}));
  ASSERT_TRUE(g->expect.has_value());
  ASSERT_EQ(g->expect->size(), 1u);
  EXPECT_EQ((*g->expect)[0].sink, 2u);
  auto none = parse_graph_file("nodes = [0]\n");
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->expect.has_value());
}

TEST(GraphToml, ErrorsNameTheKeyAndPosition) {
  expect_graph_error("nodes = [0]\nedges = [[0, 0]\n", "malformed TOML", 2);
  expect_graph_error("edges = []\n", "missing key 'nodes'", 1);
  expect_graph_error("nodes = [0]\ncolour = 1\n", "unknown key 'colour'", 2);
  expect_graph_error("nodes = [0, -1]\n", "'nodes[1]'", 1);
  expect_graph_error("nodes = [0, 1]\nedges = [[0, 1],\n  [1, 2]]\n", "'edges[1][1]'", 3);
  expect_graph_error("nodes = [0, 1]\nedges = [[0]]\n", "'edges[0]' must be a pair", 2);
  expect_graph_error("nodes = [0]\n[[expect]]\nsource = 0\nsnk = 0\n", "'expect[0].snk'", 4);
  expect_graph_error("nodes = [0]\n[[expect]]\nsource = 0\nsink = 0\n", "lacks 'depth'", 2);
}

// The archetypes labelled through rules/bfs_labels.toml must be exactly the
// inputs input_from_bfs_labels (the code path they replace) gives.
TEST(DataflowCases, RulesLabelledArchetypesEqualTheLabelConversion) {
  auto cases = dataflow_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  size_t compared = 0;
  for (const archetypes::GraphArchetype& row : archetypes::graph_archetypes()) {
    archetypes::GraphInstance instance = row.build();
    if (instance.expected_error) continue;
    auto direct =
        input_from_bfs_labels(instance.graph, instance.sources, instance.params.max_depth);
    ASSERT_TRUE(direct.ok());
    const DataflowCase& c = (*cases)[compared++];
    EXPECT_EQ(c.name, "dataflow/" + std::string(row.name));
    EXPECT_EQ(c.input.graph.node_data, direct->graph.node_data) << c.name;
    EXPECT_EQ(c.input.graph.targets, direct->graph.targets) << c.name;
    std::vector<uint32_t> metadata = direct->node_metadata;
    metadata.resize(direct->graph.node_count, 0);
    EXPECT_EQ(c.input.node_metadata, metadata) << c.name;
    EXPECT_EQ(c.input.sources, direct->sources) << c.name;
    EXPECT_EQ(c.input.max_depth, direct->max_depth) << c.name;
  }
  EXPECT_GT(compared, 5u);
  ASSERT_EQ(cases->size(), compared + 1);
  EXPECT_EQ(cases->back().name, "dataflow/web_handler");
}

// The web handler's hand-computed findings (in the graph file's comments)
// agree with the engine's CPU twin, an independent implementation.
TEST(DataflowCases, WebHandlerFindingsAgreeWithTheTwin) {
  auto cases = dataflow_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  const DataflowCase& web = cases->back();
  // Rows (source, sink, depth, source_idx), canonical order, by hand.
  EXPECT_EQ(web.canonical_expected.at("findings"), to_bytes({1, 9, 3, 0, 2, 5, 1, 1, 2, 9, 2, 1}));
  auto rules = parse_rules(*embedded_file("examples/taint_rules.toml"));
  ASSERT_TRUE(rules.ok()) << rules.error().message;
  auto transfer = transfer_of(*rules);
  ASSERT_TRUE(transfer.ok());
  auto twin = dataflow_oracle(web.input, *transfer);
  ASSERT_TRUE(twin.ok()) << twin.error().message;
  EXPECT_EQ(canonical_findings(std::move(twin).value()), web.canonical_expected);
}

TEST(EmbeddedFiles, HoldTheRepoFiles) {
  EXPECT_EQ(embedded_files().size(), 3u);
  for (const EmbeddedFile& f : embedded_files()) {
    EXPECT_FALSE(f.text.empty()) << f.path;
    EXPECT_THAT(std::string(f.text), HasSubstr("\n")) << f.path;
  }
  EXPECT_FALSE(embedded_file("rules/absent.toml").has_value());
}

}  // namespace
}  // namespace vyre::dataflow
