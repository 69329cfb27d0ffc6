#include "reference/graph/csr_graph.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace vyre::graph {
namespace {

using ::testing::HasSubstr;

// Expected arrays are written by hand from seed 001's construction rule.
TEST(CsrGraph, BuildsOffsetsAndTargetsInInputOrder) {
  const std::vector<Edge> edges = {{2, 0}, {0, 1}, {0, 2}, {2, 1}};
  auto g = try_to_csr(3, edges);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->offsets, (std::vector<uint32_t>{0, 2, 2, 4}));
  EXPECT_EQ(g->targets, (std::vector<uint32_t>{1, 2, 0, 1}));
  EXPECT_EQ(g->node_data, (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_EQ(g->edge_count(), 4u);
  EXPECT_EQ(std::vector<uint32_t>(g->neighbors(2).begin(), g->neighbors(2).end()),
            (std::vector<uint32_t>{0, 1}));
  EXPECT_TRUE(g->validate().ok());
}

TEST(CsrGraph, EmptyGraphIsValid) {
  auto g = to_csr(0, {});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->offsets, (std::vector<uint32_t>{0}));
  EXPECT_TRUE(g->validate().ok());
}

TEST(CsrGraph, ToCsrDropsOutOfRangeEdges) {
  const std::vector<Edge> edges = {{0, 1}, {0, 3}, {5, 0}, {1, 0}};
  auto g = to_csr(2, edges);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->offsets, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(g->targets, (std::vector<uint32_t>{1, 0}));
  EXPECT_TRUE(g->validate().ok());
}

TEST(CsrGraph, TryToCsrRejectsOutOfRangeEdgeNamingIt) {
  const std::vector<Edge> edges = {{0, 1}, {0, 3}};
  auto g = try_to_csr(2, edges);
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error().message, HasSubstr("edges[1] = (0, 3)"));
  EXPECT_THAT(g.error().message, HasSubstr("[0, 2)"));
  EXPECT_THAT(g.error().message, HasSubstr("Fix:"));
}

TEST(CsrGraph, HugeDeclaredNodeCountIsAnErrorNotAnAllocation) {
  auto g = to_csr(UINT32_MAX, {});
  ASSERT_FALSE(g.ok());
  EXPECT_THAT(g.error().message, HasSubstr("node_count = 4294967295"));
  EXPECT_FALSE(try_to_csr(kMaxCsrNodes + 1, {}).ok());
}

CsrGraph triangle() {
  CsrGraph g;
  g.node_count = 3;
  g.offsets = {0, 1, 2, 3};
  g.targets = {1, 2, 0};
  g.node_data = {0, 0, 0};
  return g;
}

TEST(CsrGraphValidate, AcceptsAWellFormedGraph) {
  EXPECT_TRUE(triangle().validate().ok());
}

TEST(CsrGraphValidate, DeclaredNodeCountFarPastTheGivenOffsets) {
  CsrGraph g = triangle();
  g.node_count = UINT32_MAX;
  g.offsets = {0, 0, 0};
  auto r = g.validate();
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("offsets.len() == node_count + 1"));
  EXPECT_THAT(r.error().message, HasSubstr("offsets has 3 entries"));
  EXPECT_THAT(r.error().message, HasSubstr("4294967296"));
}

TEST(CsrGraphValidate, FirstOffsetMustBeZero) {
  CsrGraph g = triangle();
  g.offsets = {1, 1, 2, 3};
  auto r = g.validate();
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("offsets[0] == 0"));
}

TEST(CsrGraphValidate, DecreasingOffsetNamesPositionAndRange) {
  CsrGraph g = triangle();
  g.offsets = {0, 2, 1, 3};
  auto r = g.validate();
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("non-decreasing"));
  EXPECT_THAT(r.error().message, HasSubstr("offsets[2] = 1 is less than offsets[1] = 2"));
  EXPECT_THAT(r.error().message, HasSubstr("valid range is [2, 3]"));
}

TEST(CsrGraphValidate, OffsetPastTheTargetsNamesPositionAndRange) {
  CsrGraph g = triangle();
  g.offsets = {0, 1, 0xFFFFFFF0u, 3};
  auto r = g.validate();
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("offsets[2] = 4294967280 points past the end"));
  EXPECT_THAT(r.error().message, HasSubstr("valid range is [1, 3]"));
}

TEST(CsrGraphValidate, LastOffsetMustEqualEdgeCount) {
  CsrGraph g = triangle();
  g.offsets = {0, 1, 2, 2};
  auto r = g.validate();
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("offsets[node_count] == targets.len()"));
  EXPECT_THAT(r.error().message, HasSubstr("offsets[3] = 2 but targets has 3 entries"));
}

TEST(CsrGraphValidate, TargetPastTheEndNamesEdgeOwnerAndRange) {
  CsrGraph g = triangle();
  g.targets = {1, 7, 0};
  auto r = g.validate();
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("every target < node_count"));
  EXPECT_THAT(r.error().message, HasSubstr("targets[1] = 7 (an edge of node 1)"));
  EXPECT_THAT(r.error().message, HasSubstr("[0, 3)"));
}

TEST(CsrGraphValidate, NodeDataMustHaveOneWordPerNode) {
  CsrGraph g = triangle();
  g.node_data = {0, 0};
  auto r = g.validate();
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("node_data.len() == node_count"));
}

}  // namespace
}  // namespace vyre::graph
