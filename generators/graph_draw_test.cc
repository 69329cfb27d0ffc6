// The Prng drawer of graph recipes, which feeds the certification run's L4
// graphs: its recipe for a seed is pinned against an independent Python
// transcription of the documented draw order, and what it builds is valid
// and shaped like each family says.
#include "generators/graph_gen.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "reference/graph/reachability.h"

namespace vyre::gen {
namespace {

using graph::NodeRole;

// Expected values from this Python (xoshiro256** and SplitMix64 as in
// prng_test.cc, `below` by rejection, draws in draw_graph_recipe's order):
//   p = P(42); size = 10
//   nodes = p.between(1, 64)
//   edges = [(p.u32(), p.u32()) for _ in range(p.between(0, size))]
//   rolls = [p.below(21) for _ in range(p.between(0, size))]
//   srcs = [p.u32() for _ in range(p.between(0, min(8, size)))]
//   depth = MAX if p.below(5) < 3 else p.between(0, 8)
//   plant = p.below(5) < 4; sink = p.u32()
// Rolls 6, 3, 13, 13, 7 are Normal, Normal, Source, Source, Normal
// (Normal 0-11, Source 12-14).
TEST(GraphDraw, RecipeForSeed42IsPinned) {
  Prng prng(42);
  const GraphRecipe r = draw_graph_recipe(GraphShape::SparseRandom, prng, 10);
  EXPECT_EQ(r.nodes, 23u);
  const std::vector<std::pair<uint32_t, uint32_t>> edges = {
      {2920764210u, 3971525959u}, {4259765375u, 3306005809u}, {3089192069u, 3650758467u},
      {3270078066u, 2505466207u}, {2931112756u, 1248451480u}, {3440373161u, 1380452453u},
      {3054365755u, 3769981544u}};
  EXPECT_EQ(r.raw_edges, edges);
  EXPECT_EQ(r.roles, (std::vector<NodeRole>{NodeRole::Normal, NodeRole::Normal, NodeRole::Source,
                                            NodeRole::Source, NodeRole::Normal}));
  EXPECT_TRUE(r.raw_sources.empty());
  EXPECT_EQ(r.max_depth, UINT32_MAX);
  EXPECT_TRUE(r.plant);
  EXPECT_EQ(r.raw_sink, 2101062592u);
}

TEST(GraphDraw, RollsMapToRolesInTheDocumentedShares) {
  int counts[5] = {};
  for (uint32_t roll = 0; roll < kRoleRolls; ++roll) {
    ++counts[static_cast<int>(role_of_roll(roll))];
  }
  EXPECT_EQ(role_of_roll(0), NodeRole::Normal);
  EXPECT_EQ(counts[static_cast<int>(NodeRole::Normal)], 12);
  EXPECT_EQ(counts[static_cast<int>(NodeRole::Source)], 3);
  EXPECT_EQ(counts[static_cast<int>(NodeRole::Sink)], 3);
  EXPECT_EQ(counts[static_cast<int>(NodeRole::SourceSink)], 1);
  EXPECT_EQ(counts[static_cast<int>(NodeRole::Sanitizer)], 2);
}

TEST(GraphDraw, SameStreamSameGraph) {
  for (GraphShape shape : all_graph_shapes()) {
    Prng a(5), b(5);
    const GraphSample x = draw_graph_sample(shape, a, 60);
    const GraphSample y = draw_graph_sample(shape, b, 60);
    EXPECT_EQ(x.graph.offsets, y.graph.offsets) << name_of(shape);
    EXPECT_EQ(x.graph.targets, y.graph.targets) << name_of(shape);
    EXPECT_EQ(x.graph.node_data, y.graph.node_data) << name_of(shape);
    EXPECT_EQ(x.sources, y.sources) << name_of(shape);
  }
}

// Valid graph.bfs inputs of the right family, and (as for the RapidCheck
// drawer) at least two samples in three hold a finding by the CPU oracle.
TEST(GraphDraw, SamplesAreValidShapedAndMostlyHoldAFinding) {
  constexpr int kSamples = 300;
  for (GraphShape shape : all_graph_shapes()) {
    Prng prng(2026);
    int with_finding = 0;
    for (int k = 0; k < kSamples; ++k) {
      const int size = 1 + k % 100;
      const GraphSample s = draw_graph_sample(shape, prng, size);
      ASSERT_TRUE(s.graph.validate().ok()) << name_of(shape);
      ASSERT_TRUE(graph::validate_labels(s.graph.node_data).ok()) << name_of(shape);
      ASSERT_LE(s.graph.node_count, max_nodes_of(shape));
      ASSERT_LE(s.sources.size(), 8u);
      for (uint32_t src : s.sources) ASSERT_LT(src, s.graph.node_count);
      const uint64_t n = s.graph.node_count;
      for (uint32_t a = 0; a < n; ++a) {
        const auto next = s.graph.neighbors(a);
        if (shape == GraphShape::Dag) {
          for (uint32_t t : next) ASSERT_GT(t, a);
        }
        if (shape == GraphShape::LongChain && a + 1 < n) {
          ASSERT_NE(std::find(next.begin(), next.end(), a + 1), next.end());
        }
      }
      // One pair removed at most per raw edge, and there are at most `size`.
      if (shape == GraphShape::DenseClique) {
        ASSERT_GE(s.graph.edge_count() + static_cast<uint64_t>(size), n * (n - 1));
      }
      auto reach = graph::reachable_nodes(s.graph, s.sources, {.max_depth = s.max_depth});
      ASSERT_TRUE(reach.ok());
      with_finding += graph::findings_of(s.graph, *reach).empty() ? 0 : 1;
    }
    EXPECT_GE(with_finding * 3, kSamples * 2) << name_of(shape);
  }
}

}  // namespace
}  // namespace vyre::gen
