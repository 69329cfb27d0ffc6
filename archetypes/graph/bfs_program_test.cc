#include "archetypes/graph/bfs_program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <variant>
#include <vector>

#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_layout.h"
#include "reference/graph/node_label.h"
#include "reference/interpreter.h"
#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/validate/validator.h"

namespace vyre::archetypes::bfs {
namespace {

using graph::Finding;
using graph::NodeRole;

// Seed 001's buffer layout table, copied by hand.
TEST(GraphBfsProgram, BindingsZeroToSevenAreSeed001s) {
  const Program p = graph_bfs_program();
  struct Want {
    uint32_t binding;
    const char* name;
    BufferAccess access;
  };
  const Want want[] = {
      {0, "node_labels", BufferAccess::ReadOnly},  {1, "edge_offsets", BufferAccess::ReadOnly},
      {2, "edge_targets", BufferAccess::ReadOnly}, {3, "source_nodes", BufferAccess::ReadOnly},
      {4, "findings", BufferAccess::ReadWrite},    {5, "finding_count", BufferAccess::ReadWrite},
      {6, "params", BufferAccess::Uniform},        {7, "visited_set", BufferAccess::ReadWrite},
  };
  for (const Want& w : want) {
    const BufferDecl* decl = p.buffer(w.name);
    ASSERT_NE(decl, nullptr) << w.name;
    EXPECT_EQ(decl->binding, w.binding) << w.name;
    EXPECT_EQ(decl->access, w.access) << w.name;
    EXPECT_EQ(decl->element, DataType::U32) << w.name;
  }
  EXPECT_EQ(p.buffer("params")->count, 5u);
  EXPECT_EQ(p.workgroup_size, (std::array<uint32_t, 3>{64, 1, 1}));
}

TEST(GraphBfsProgram, PassesTheValidator) {
  const std::vector<Diagnostic> diagnostics = validate(graph_bfs_program());
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.front().message;
}

TEST(GraphBfsProgram, ExtensionsSitAtBindingEightAndUp) {
  const Program p = graph_bfs_program();
  EXPECT_EQ(p.buffers.size(), 10u);
  ASSERT_NE(p.buffer("bfs_queue"), nullptr);
  EXPECT_EQ(p.buffer("bfs_queue")->binding, 8u);
  ASSERT_NE(p.buffer("queue_overflow"), nullptr);
  EXPECT_EQ(p.buffer("queue_overflow")->binding, 9u);
  EXPECT_EQ(kMaxBfsQueue, 4096u);
  for (const BindingRow& row : kBindings) EXPECT_EQ(row.extension, row.binding >= 8) << row.name;
}

/// 0 (source) -> 1 -> 2 (sink), 0 -> 3 (sanitizer) -> 4 (sink), 2 -> 0.
graph::CsrGraph small_graph() {
  auto g = *graph::try_to_csr(5, std::vector<graph::Edge>{{0, 1}, {1, 2}, {0, 3}, {3, 4}, {2, 0}});
  g.node_data = {graph::make_label(NodeRole::Source), 0, graph::make_label(NodeRole::Sink),
                 graph::make_label(NodeRole::Sanitizer), graph::make_label(NodeRole::Sink)};
  return g;
}

Result<BfsOutcome> run_on_interpreter(const BfsDispatch& d, const BufferSet& inputs,
                                      reference::RunOptions options = {}) {
  options.strict_oob = true;
  // The queue's raw order is the schedule's by design; canonical schedule
  // independence is DispatchingArchetype's and GraphParity's to check.
  options.schedule_probes = 0;
  auto run = reference::run(graph_bfs_program(), inputs, d.grid, options);
  if (!run) return run.error();
  EXPECT_TRUE(run->conforming()) << run->violations.front().message;
  EXPECT_EQ(run->oob.total(), 0u);
  return read_bfs_outputs(run->outputs, d);
}

TEST(GraphBfsProgram, RunsRaceFreeOnTheInterpreter) {
  const graph::CsrGraph g = small_graph();
  const std::vector<uint32_t> sources = {0, 0, 2};
  auto d = prepare_bfs(g, sources, {16, UINT32_MAX});
  ASSERT_TRUE(d.ok()) << d.error().message;
  auto out = run_on_interpreter(*d, d->inputs);
  ASSERT_TRUE(out.ok()) << out.error().message;
  // By hand: source 0 (twice) reaches sink 2 at depth 2; the sanitizer hides
  // sink 4. Start 2 is a sink: (2, 2, 0), then 2 -> 0 -> 1 reaches nothing new.
  EXPECT_EQ(out->findings, (std::vector<Finding>{{0, 2, 2, 0}, {0, 2, 2, 1}, {2, 2, 0, 2}}));
  EXPECT_EQ(out->finding_count, 3u);
  EXPECT_EQ(out->queue_overflow, 0u);
  EXPECT_FALSE(out->truncated);
}

TEST(GraphBfsProgram, PoisonedScratchAndOutputRowsDoNotChangeTheResult) {
  const graph::CsrGraph g = small_graph();
  const std::vector<uint32_t> sources = {0, 2};
  auto d = prepare_bfs(g, sources, {16, UINT32_MAX});
  ASSERT_TRUE(d.ok());
  BufferSet poisoned = d->inputs;
  for (std::string_view name : {kVisitedSet, kQueue, kFindings}) {
    auto& bytes = poisoned[std::string(name)];
    std::fill(bytes.begin(), bytes.end(), uint8_t{0xA5});
  }
  auto clean = run_on_interpreter(*d, d->inputs);
  auto dirty = run_on_interpreter(*d, poisoned);
  ASSERT_TRUE(clean.ok() && dirty.ok());
  EXPECT_EQ(clean->findings, dirty->findings);
  EXPECT_EQ(clean->finding_count, dirty->finding_count);
}

TEST(GraphBfsProgram, SurplusInvocationsAndWorkgroupsDoNothing) {
  const graph::CsrGraph g = small_graph();
  const std::vector<uint32_t> sources = {0};
  auto d = prepare_bfs(g, sources, {16, UINT32_MAX});
  ASSERT_TRUE(d.ok());
  BfsDispatch wide = *d;
  wide.grid.workgroups = {5, 2, 1};
  auto one = run_on_interpreter(*d, d->inputs);
  auto many = run_on_interpreter(wide, wide.inputs);
  ASSERT_TRUE(one.ok() && many.ok());
  EXPECT_EQ(one->findings, many->findings);
  EXPECT_EQ(many->findings, (std::vector<Finding>{{0, 2, 2, 0}}));
}

TEST(GraphBfsProgram, VisitedBitsEndUpExactlyOnReachedNodes) {
  // The bitmap is an output a host may read: bit n of source s is set iff n
  // was reached (sanitizer 3 is reached, sink 4 behind it is not).
  const graph::CsrGraph g = small_graph();
  const std::vector<uint32_t> sources = {0};
  auto d = prepare_bfs(g, sources, {16, UINT32_MAX});
  ASSERT_TRUE(d.ok());
  auto run = reference::run(graph_bfs_program(), d->inputs, d->grid);
  ASSERT_TRUE(run.ok()) << run.error().message;
  const auto visited = to_words(run->outputs.at(std::string(kVisitedSet)));
  ASSERT_EQ(visited.size(), 1u);
  EXPECT_EQ(visited[0], 0b01111u);
}

/// Records, for every Loop in `body`, how many Loops enclose it.
void loop_nesting(const Body& body, uint32_t enclosing, std::vector<uint32_t>& out) {
  for (const Node& n : body) {
    if (const auto* l = std::get_if<node::Loop>(&n.kind)) {
      out.push_back(enclosing);
      loop_nesting(l->body, enclosing + 1, out);
    } else if (const auto* i = std::get_if<node::If>(&n.kind)) {
      loop_nesting(i->then_body, enclosing, out);
      loop_nesting(i->otherwise, enclosing, out);
    } else if (const auto* b = std::get_if<node::Block>(&n.kind)) {
      loop_nesting(b->body, enclosing, out);
    }
  }
}

// lavapipe counts loop back-edges per batch of lanes run in lockstep; with no
// loop inside another, a batch costs at most the sum of the loops' bounds,
// whatever its lanes do (BFS.md, "The step loop").
TEST(GraphBfsProgram, HasTwoLoopsAndNeitherIsNested) {
  std::vector<uint32_t> nesting;
  loop_nesting(graph_bfs_program().entry, 0, nesting);
  EXPECT_EQ(nesting, (std::vector<uint32_t>{0, 0}));  // the bitmap clear, the step loop
}

/// graph_bfs_program() with its step loop replaced by a Store of the loop's
/// upper bound into queue_overflow[0]: a run reports the bound it computed.
Program program_reporting_step_bound() {
  Program p = graph_bfs_program();
  bool found = false;
  for (Node& n : p.entry) {
    if (const auto* l = std::get_if<node::Loop>(&n.kind); l && l->var == "step") {
      ExprPtr bound = l->to;
      n = build::store(std::string(kQueueOverflow), build::u32(0), std::move(bound));
      found = true;
    }
  }
  EXPECT_TRUE(found) << "graph_bfs_program() has no top-level Loop named `step`";
  return p;
}

/// The step bound one source computes from `inputs` (one source, one workgroup).
uint32_t step_bound_of(const BfsDispatch& d, const BufferSet& inputs) {
  reference::RunOptions options;
  options.strict_oob = true;
  auto run = reference::run(program_reporting_step_bound(), inputs, d.grid, options);
  EXPECT_TRUE(run.ok()) << run.error().message;
  if (!run) return 0;
  EXPECT_TRUE(run->conforming()) << run->violations.front().message;
  return to_words(run->outputs.at(std::string(kQueueOverflow)))[0];
}

TEST(GraphBfsProgram, StepBoundIsEdgesPlusNodesPlusOne) {
  // small_graph: 5 nodes, 5 edges, so 5 + 5 + 1 = 11 steps.
  const graph::CsrGraph g = small_graph();
  const std::vector<uint32_t> sources = {0};
  auto d = prepare_bfs(g, sources, {16, UINT32_MAX});
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(step_bound_of(*d, d->inputs), 11u);
}

TEST(GraphBfsProgram, StepBoundSaturatesInsteadOfWrapping) {
  // Past any graph the host accepts (its 2 GiB staging limit keeps
  // num_edges + num_nodes + 1 under 2^30): edge_offsets[5], the edge count
  // the program reads, is forged so the sum reaches or passes 2^32.
  const graph::CsrGraph g = small_graph();
  const std::vector<uint32_t> sources = {0};
  auto d = prepare_bfs(g, sources, {16, UINT32_MAX});
  ASSERT_TRUE(d.ok()) << d.error().message;
  struct Row {
    uint32_t last_offset;
    uint32_t bound;
  };
  const Row rows[] = {
      {0xFFFFFFF9u, 0xFFFFFFFFu},  // 2^32 - 7 + 5 + 1 = 2^32 - 1 exactly
      {0xFFFFFFFAu, 0xFFFFFFFFu},  // + 5 = 2^32 - 1; the + 1 would wrap to 0
      {0xFFFFFFFEu, 0xFFFFFFFFu},  // + 5 wraps to 3
  };
  for (const Row& row : rows) {
    BufferSet forged = d->inputs;
    std::vector<uint32_t> offsets = g.offsets;
    offsets.back() = row.last_offset;
    forged[std::string(kEdgeOffsets)] = to_bytes(offsets);
    EXPECT_EQ(step_bound_of(*d, forged), row.bound) << row.last_offset;
  }
}

/// Nodes of staggered_hub_graph(): chain c0..c7 = 0..7, hub 8, leaves
/// 9..4104, sink 4105.
constexpr uint32_t kHub = 8;
constexpr uint32_t kFirstLeaf = 9;
constexpr uint32_t kLastLeaf = kFirstLeaf + kMaxBfsQueue - 1;
constexpr uint32_t kHubSink = kLastLeaf + 1;

/// c0 -> c1 -> ... -> c7 -> hub -> 4096 leaves, last leaf -> sink; c0..c7 are
/// sources. Source k meets the hub at depth 8 - k, so eight lanes in lockstep
/// reach the hub's 4096 edges and the 4096-node leaf level at eight different
/// levels.
graph::CsrGraph staggered_hub_graph() {
  std::vector<graph::Edge> edges;
  for (uint32_t c = 0; c < kHub; ++c) edges.push_back({c, c + 1});
  for (uint32_t leaf = kFirstLeaf; leaf <= kLastLeaf; ++leaf) edges.push_back({kHub, leaf});
  edges.push_back({kLastLeaf, kHubSink});
  auto g = *graph::try_to_csr(kHubSink + 1, edges);
  g.node_data.assign(kHubSink + 1, 0);
  for (uint32_t c = 0; c < kHub; ++c) g.node_data[c] = graph::make_label(NodeRole::Source);
  g.node_data[kHubSink] = graph::make_label(NodeRole::Sink);
  return g;
}

// By hand, for the former level -> node -> edge loops with sources 0..7 in
// one lavapipe batch of 8 lanes: at level L in 2..8, lane 9 - L dequeues its
// 4096 leaves (4096 node-loop back-edges) while lane 8 - L expands the hub in
// node slot 0 (4096 edge-loop back-edges); level 1 has the hub of lane 7 and
// level 9 the leaves of lane 0: already 7 x 8192 + 4096 + 4096 = 65536 > 65535, so
// lavapipe cut the traversal short. The flat loop costs at most
// words_per_source + step bound = ceil(4106 / 32) + (4105 + 4106 + 1) = 129 + 8212 = 8341.
TEST(GraphBfsProgram, StaggeredHubFitsLavapipesLoopBudget) {
  const graph::CsrGraph g = staggered_hub_graph();
  ASSERT_EQ(g.node_count, 4106u);
  ASSERT_EQ(g.edge_count(), 4105u);
  const std::vector<uint32_t> sources = {0, 1, 2, 3, 4, 5, 6, 7};
  auto d = prepare_bfs(g, sources, {16, UINT32_MAX});
  ASSERT_TRUE(d.ok()) << d.error().message;
  const std::vector<uint32_t> one_source = {0};
  auto single = prepare_bfs(g, one_source, {16, UINT32_MAX});
  ASSERT_TRUE(single.ok()) << single.error().message;
  const uint32_t bound = step_bound_of(*single, single->inputs);
  EXPECT_EQ(bound, 8212u);
  EXPECT_EQ(d->words_per_source + bound, 8341u);
  EXPECT_LT(d->words_per_source + bound, 65535u);

  // Source 0 reaches every node and edge, so it needs all 8212 steps; its
  // finding comes from the 8210th (the last leaf's edge), so a bound short
  // by 3 or more would lose it. Source k finds the sink at depth 10 - k.
  auto out = run_on_interpreter(*d, d->inputs);
  ASSERT_TRUE(out.ok()) << out.error().message;
  std::vector<Finding> want;
  for (uint32_t k = 0; k < 8; ++k) want.push_back({k, kHubSink, 10 - k, k});
  EXPECT_EQ(out->findings, want);
  EXPECT_EQ(out->finding_count, 8u);
  EXPECT_EQ(out->queue_overflow, 0u);
}

}  // namespace
}  // namespace vyre::archetypes::bfs
