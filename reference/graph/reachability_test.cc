#include "reference/graph/reachability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "reference/graph/node_label.h"

namespace vyre::graph {
namespace {

using ::testing::HasSubstr;

// Every expected value below is worked out by hand from seed 001 and pinned
// spec section 7 (shortest-path depth, sanitizers reached but not expanded).

CsrGraph make_graph(uint32_t n, const std::vector<Edge>& edges, std::vector<NodeRole> roles = {}) {
  auto g = try_to_csr(n, edges);
  EXPECT_TRUE(g.ok());
  roles.resize(n, NodeRole::Normal);
  for (uint32_t i = 0; i < n; ++i) g->node_data[i] = make_label(roles[i]);
  return *g;
}

std::vector<ReachedNode> sorted(std::vector<ReachedNode> v) {
  std::sort(v.begin(), v.end(), [](const ReachedNode& a, const ReachedNode& b) {
    return std::tie(a.source_idx, a.node) < std::tie(b.source_idx, b.node);
  });
  return v;
}

TEST(ReachableNodes, DiamondReportsShortestDepth) {
  // 0 -> 1 -> 3, 0 -> 2 -> 4 -> 3, 3 -> 5.
  const CsrGraph g = make_graph(6, {{0, 1}, {0, 2}, {1, 3}, {2, 4}, {4, 3}, {3, 5}});
  const std::vector<uint32_t> sources = {0};
  auto r = reachable_nodes(g, sources);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(sorted(r->reached), (std::vector<ReachedNode>{
                                    {0, 0, 0, 0},
                                    {0, 0, 1, 1},
                                    {0, 0, 2, 1},
                                    {0, 0, 3, 2},
                                    {0, 0, 4, 2},
                                    {0, 0, 5, 3},
                                }));
  EXPECT_EQ(r->edges_scanned, 6u);
  EXPECT_EQ(r->dropped, 0u);
}

TEST(ReachableNodes, MaxDepthBoundsReachAndExpansion) {
  // Chain 0 -> 1 -> 2 -> 3.
  const CsrGraph g = make_graph(4, {{0, 1}, {1, 2}, {2, 3}});
  const std::vector<uint32_t> sources = {0};
  auto r = reachable_nodes(g, sources, {.max_depth = 2});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(sorted(r->reached),
            (std::vector<ReachedNode>{{0, 0, 0, 0}, {0, 0, 1, 1}, {0, 0, 2, 2}}));
  // Node 2 sits at max_depth: reached, not expanded, so edge 2->3 is never read.
  EXPECT_EQ(r->edges_scanned, 2u);
  auto zero = reachable_nodes(g, sources, {.max_depth = 0});
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->reached, (std::vector<ReachedNode>{{0, 0, 0, 0}}));
}

TEST(ReachableNodes, SanitizerIsReachedButNotExpanded) {
  // 0 -> 1 (sanitizer) -> 2; also a sanitizer start node.
  const CsrGraph g = make_graph(3, {{0, 1}, {1, 2}}, {NodeRole::Source, NodeRole::Sanitizer});
  const std::vector<uint32_t> sources = {0, 1};
  auto r = reachable_nodes(g, sources);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(sorted(r->reached),
            (std::vector<ReachedNode>{{0, 0, 0, 0}, {0, 0, 1, 1}, {1, 1, 1, 0}}));
}

TEST(ReachableNodes, SourcesAreIndependentAndCyclesTerminate) {
  // Cycle 0 -> 1 -> 2 -> 0; two sources on it.
  const CsrGraph g = make_graph(3, {{0, 1}, {1, 2}, {2, 0}});
  const std::vector<uint32_t> sources = {2, 0};
  auto r = reachable_nodes(g, sources);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(sorted(r->reached), (std::vector<ReachedNode>{
                                    {0, 2, 0, 1},
                                    {0, 2, 1, 2},
                                    {0, 2, 2, 0},
                                    {1, 0, 0, 0},
                                    {1, 0, 1, 1},
                                    {1, 0, 2, 2},
                                }));
}

TEST(ReachableNodes, LevelCapacityDropsLateNodesAndCountsThem) {
  // Star 0 -> 1, 2, 3, each spoke -> its own leaf 4, 5, 6; capacity 2 per level.
  const CsrGraph g = make_graph(7, {{0, 1}, {0, 2}, {0, 3}, {1, 4}, {2, 5}, {3, 6}});
  const std::vector<uint32_t> sources = {0};
  auto r = reachable_nodes(g, sources, {.level_capacity = 2});
  ASSERT_TRUE(r.ok());
  // Spoke 3 is found third at level 1: reached, dropped, never expanded.
  EXPECT_EQ(r->dropped, 1u);
  EXPECT_EQ(sorted(r->reached), (std::vector<ReachedNode>{
                                    {0, 0, 0, 0},
                                    {0, 0, 1, 1},
                                    {0, 0, 2, 1},
                                    {0, 0, 3, 1},
                                    {0, 0, 4, 2},
                                    {0, 0, 5, 2},
                                }));
  // Nodes at max_depth need no expansion, so a full level drops none of them.
  auto shallow = reachable_nodes(g, sources, {.max_depth = 1, .level_capacity = 2});
  ASSERT_TRUE(shallow.ok());
  EXPECT_EQ(shallow->dropped, 0u);
}

TEST(FindingsOf, StartSourceSinkYieldsDepthZeroAndSourcesAreNotSinks) {
  // 0 (source+sink) -> 1 (source) -> 2 (sink) -> 0.
  const CsrGraph g = make_graph(3, {{0, 1}, {1, 2}, {2, 0}},
                                {NodeRole::SourceSink, NodeRole::Source, NodeRole::Sink});
  const std::vector<uint32_t> sources = {1, 0};
  auto r = reachable_nodes(g, sources);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(findings_of(g, *r), (std::vector<Finding>{
                                    {0, 0, 0, 1},
                                    {0, 2, 2, 1},
                                    {1, 0, 2, 0},
                                    {1, 2, 1, 0},
                                }));
}

TEST(FindingsOf, AnotherGraphIsReadSafely) {
  // A query on 3 nodes read against a graph of 2 nodes whose sink-labelled
  // node 1 holds reserved role 5: node 2 is outside, node 1 is no finding.
  const CsrGraph g =
      make_graph(3, {{0, 1}, {1, 2}}, {NodeRole::Source, NodeRole::Sink, NodeRole::Sink});
  const std::vector<uint32_t> sources = {0};
  auto r = reachable_nodes(g, sources);
  ASSERT_TRUE(r.ok());
  CsrGraph other = make_graph(2, {{0, 1}});
  other.node_data[1] = 0x00050000u;
  EXPECT_TRUE(findings_of(other, *r).empty());
  EXPECT_EQ(findings_of(g, *r), (std::vector<Finding>{{0, 1, 1, 0}, {0, 2, 2, 0}}));
}

TEST(ReachableNodes, RejectsSourcesOutsideTheGraph) {
  const CsrGraph g = make_graph(2, {{0, 1}});
  const std::vector<uint32_t> sources = {0, 2};
  auto r = reachable_nodes(g, sources);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("source_nodes[1] = 2"));
  EXPECT_THAT(r.error().message, HasSubstr("[0, 2)"));
}

TEST(ReachableNodes, RejectsMalformedGraphsAndReservedLabels) {
  CsrGraph g = make_graph(2, {{0, 1}});
  g.targets[0] = 9;
  const std::vector<uint32_t> sources = {0};
  auto bad_csr = reachable_nodes(g, sources);
  ASSERT_FALSE(bad_csr.ok());
  EXPECT_THAT(bad_csr.error().message, HasSubstr("every target < node_count"));

  CsrGraph labelled = make_graph(2, {{0, 1}});
  labelled.node_data[1] = 0x00050000u;
  auto bad_label = reachable_nodes(labelled, sources);
  ASSERT_FALSE(bad_label.ok());
  EXPECT_THAT(bad_label.error().message, HasSubstr("has role 5"));
}

TEST(Finding, CanonicalOrderAndWordRoundTrip) {
  std::vector<Finding> f = {{2, 1, 1, 0}, {1, 5, 3, 1}, {1, 5, 2, 2}, {1, 4, 9, 0}};
  sort_canonical(f);
  EXPECT_EQ(f, (std::vector<Finding>{{1, 4, 9, 0}, {1, 5, 2, 2}, {1, 5, 3, 1}, {2, 1, 1, 0}}));
  const std::vector<uint32_t> words = findings_to_words(f);
  EXPECT_EQ(words.size(), 16u);
  EXPECT_EQ(words[4], 1u);
  EXPECT_EQ(words[5], 5u);
  EXPECT_EQ(findings_from_words(words, 4), f);
  EXPECT_EQ(findings_from_words(words, 2).size(), 2u);
  // A count past the words given decodes only the complete rows.
  EXPECT_EQ(findings_from_words(words, 99).size(), 4u);
}

}  // namespace
}  // namespace vyre::graph
