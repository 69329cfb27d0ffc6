#include "generators/graph_gen.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "reference/graph/node_label.h"

namespace vyre::gen {
namespace {

// Every generated sample must be a valid graph.bfs input: a CSR that
// validates, defined roles, sources inside the graph.
void check_valid(const GraphSample& s) {
  RC_ASSERT(s.graph.validate().ok());
  RC_ASSERT(graph::validate_labels(s.graph.node_data).ok());
  RC_ASSERT(s.sources.size() <= 8u);
  for (uint32_t src : s.sources) RC_ASSERT(src < s.graph.node_count);
}

RC_GTEST_PROP(GraphGen, SparseRandomIsValid, ()) {
  check_valid(*graph_sample(GraphShape::SparseRandom));
}

RC_GTEST_PROP(GraphGen, PowerLawIsValid, ()) {
  check_valid(*graph_sample(GraphShape::PowerLaw));
}

RC_GTEST_PROP(GraphGen, DagHasOnlyForwardEdges, ()) {
  const GraphSample s = *graph_sample(GraphShape::Dag);
  check_valid(s);
  for (uint32_t n = 0; n < s.graph.node_count; ++n) {
    for (uint32_t t : s.graph.neighbors(n)) RC_ASSERT(t > n);
  }
}

RC_GTEST_PROP(GraphGen, LongChainContainsThePath, ()) {
  const GraphSample s = *graph_sample(GraphShape::LongChain);
  check_valid(s);
  for (uint32_t n = 0; n + 1 < s.graph.node_count; ++n) {
    const auto next = s.graph.neighbors(n);
    RC_ASSERT(std::find(next.begin(), next.end(), n + 1) != next.end());
  }
}

RC_GTEST_PROP(GraphGen, DenseCliqueIsNearlyComplete, ()) {
  const GraphSample s = *graph_sample(GraphShape::DenseClique);
  check_valid(s);
  const uint64_t n = s.graph.node_count;
  RC_ASSERT(s.graph.node_count <= 20u);
  // At most one pair is removed per raw edge, and the default size gives at
  // most 100 raw edges.
  RC_ASSERT(uint64_t{s.graph.edge_count()} + 100 >= n * (n - 1));
}

TEST(GraphGen, ShapeTableIsComplete) {
  std::set<std::string_view> names;
  for (GraphShape shape : all_graph_shapes()) names.insert(name_of(shape));
  EXPECT_EQ(names, (std::set<std::string_view>{"sparse_random", "power_law", "dag", "long_chain",
                                               "dense_clique"}));
}

// A property that fails on any graph with an edge must shrink to the
// smallest such graph: one node with a self-loop, or two nodes and one edge.
TEST(GraphGen, CounterexamplesShrinkToTinyGraphs) {
  for (GraphShape shape : {GraphShape::SparseRandom, GraphShape::PowerLaw, GraphShape::Dag}) {
    GraphSample smallest;
    bool failed = false;
    const auto result = rc::detail::checkTestable([&] {
      const GraphSample s = *graph_sample(shape);
      if (s.graph.edge_count() > 0) {
        smallest = s;
        failed = true;
        RC_FAIL("has an edge");
      }
    });
    ASSERT_TRUE(failed) << name_of(shape);
    ASSERT_FALSE(result.template is<rc::detail::SuccessResult>());
    // The last failing value RapidCheck tried is the shrunk one.
    EXPECT_LE(smallest.graph.node_count, 2u) << name_of(shape);
    EXPECT_EQ(smallest.graph.edge_count(), 1u) << name_of(shape);
  }
}

}  // namespace
}  // namespace vyre::gen
