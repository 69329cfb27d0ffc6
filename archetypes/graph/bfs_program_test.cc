#include "archetypes/graph/bfs_program.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_layout.h"
#include "archetypes/support/host_words.h"
#include "reference/graph/node_label.h"
#include "reference/interpreter.h"
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

}  // namespace
}  // namespace vyre::archetypes::bfs
