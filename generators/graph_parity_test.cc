// Parity on thousands of generated graphs, on the reference interpreter:
// graph.bfs (IR program) == the CPU oracle (reachable_nodes) == the dataflow
// engine (through the reference backend) where their contracts overlap, and
// graph.bfs gives identical canonical findings under every schedule and grid.
//
// Where the contracts differ: the engine has no finding cap and no frontier
// queue (generated graphs are far below MAX_BFS_QUEUE nodes, so the program
// never drops a node here either), and its sanitizers block entry through the
// transfer function while graph.bfs sanitizers block exit. Findings agree for
// every source except a sanitizer start node, which graph.bfs never expands;
// those sources are checked against the engine's own CPU twin instead.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/dataflow_oracle.h"
#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_layout.h"
#include "archetypes/graph/bfs_program.h"
#include "backends/registry.h"
#include "generators/graph_gen.h"
#include "generators/property_check.h"
#include "reference/graph/node_label.h"
#include "reference/graph/reachability.h"
#include "reference/interpreter.h"

namespace vyre::gen {
namespace {

namespace bfs = archetypes::bfs;
using graph::Finding;

std::vector<Finding> oracle_findings(const GraphSample& s) {
  auto reach = graph::reachable_nodes(
      s.graph, s.sources, {.max_depth = s.max_depth, .level_capacity = bfs::kMaxBfsQueue});
  RC_ASSERT(reach.ok());
  RC_ASSERT(reach->dropped == 0u);
  return graph::findings_of(s.graph, *reach);
}

/// graph.bfs on the interpreter; checks conformance and decodes.
bfs::BfsOutcome run_bfs(const bfs::BfsDispatch& d, const Grid& grid,
                        reference::Schedule schedule = {}) {
  reference::RunOptions options;
  options.schedule = schedule;
  options.strict_oob = true;
  auto run = reference::run(bfs::graph_bfs_program(), d.inputs, grid, options);
  if (!run) RC_FAIL(run.error().message);
  if (!run->conforming()) RC_FAIL(run->violations.front().message);
  auto out = bfs::read_bfs_outputs(run->outputs, d);
  RC_ASSERT(out.ok());
  return *out;
}

bfs::BfsDispatch prepare(const GraphSample& s) {
  // Room for every possible finding, so nothing is truncated.
  const uint32_t room = static_cast<uint32_t>(s.sources.size() * s.graph.node_count + 1);
  auto d = bfs::prepare_bfs(s.graph, s.sources, {room, s.max_depth});
  if (!d) RC_FAIL(d.error().message);
  return *d;
}

TEST(GraphParity, GraphBfsEqualsTheCpuOracle) {
  for (GraphShape shape : all_graph_shapes()) {
    check_property(300, [shape] {
      const GraphSample s = *graph_sample(shape);
      const bfs::BfsDispatch d = prepare(s);
      const bfs::BfsOutcome got = run_bfs(d, d.grid);
      RC_ASSERT(got.findings == oracle_findings(s));
      RC_ASSERT(got.finding_count == got.findings.size());
      RC_ASSERT(got.queue_overflow == 0u);
    });
  }
}

TEST(GraphParity, DataflowEngineEqualsItsTwinAndGraphBfsWhereContractsOverlap) {
  auto backend = make_backend("reference");
  ASSERT_TRUE(backend.ok()) << backend.error().message;
  auto transfer = dataflow::make_transfer("block_mask");
  ASSERT_TRUE(transfer.ok());
  auto engine = dataflow::DataflowEngine::create(**backend, *transfer);
  ASSERT_TRUE(engine.ok()) << engine.error().message;
  for (GraphShape shape : all_graph_shapes()) {
    check_property(150, [&] {
      const GraphSample s = *graph_sample(shape);
      auto input = dataflow::input_from_bfs_labels(s.graph, s.sources, s.max_depth);
      RC_ASSERT(input.ok());
      auto ran = engine->run(*input);
      if (!ran) RC_FAIL(ran.error().message);
      auto twin = dataflow::dataflow_oracle(*input, *transfer);
      RC_ASSERT(twin.ok());
      RC_ASSERT(ran->findings == *twin);
      // Drop the rows of sanitizer start nodes; the rest is graph.bfs's set.
      std::vector<Finding> overlap;
      for (const Finding& f : ran->findings) {
        const auto role = graph::role_bits(s.graph.node_data[s.sources[f.source_idx]]);
        if (role != static_cast<uint32_t>(graph::NodeRole::Sanitizer)) overlap.push_back(f);
      }
      RC_ASSERT(overlap == oracle_findings(s));
    });
  }
}

TEST(GraphParity, GraphBfsIsDeterministicAcrossSchedulesAndGrids) {
  check_property(300, [] {
    const GraphSample s = *any_graph_sample();
    const bfs::BfsDispatch d = prepare(s);
    const auto canonical = run_bfs(d, d.grid).findings;
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    using Kind = reference::Schedule::Kind;
    RC_ASSERT(run_bfs(d, d.grid, {Kind::Reversed, 0}).findings == canonical);
    RC_ASSERT(run_bfs(d, d.grid, {Kind::Random, seed}).findings == canonical);
    Grid wider = d.grid;
    wider.workgroups[0] += *rc::gen::inRange<uint32_t>(1, 4);
    wider.workgroups[1] = *rc::gen::inRange<uint32_t>(1, 3);
    RC_ASSERT(run_bfs(d, wider, {Kind::Random, seed + 1}).findings == canonical);
  });
}

// Same graph, same sources, 100 runs (seed 001's determinism archetype), on
// a graph whose findings race for slots: many sources, many sinks.
TEST(GraphParity, HundredRunsGiveIdenticalFindings) {
  std::vector<graph::Edge> edges;
  for (uint32_t i = 0; i < 40; ++i) edges.push_back({i, (i * 7 + 3) % 40});
  for (uint32_t i = 0; i < 40; ++i) edges.push_back({i, (i + 1) % 40});
  auto g = graph::try_to_csr(40, edges);
  ASSERT_TRUE(g.ok());
  for (uint32_t n = 0; n < 40; n += 3) g->node_data[n] = graph::make_label(graph::NodeRole::Sink);
  std::vector<uint32_t> sources;
  for (uint32_t n = 0; n < 40; n += 2) sources.push_back(n);
  auto d = bfs::prepare_bfs(*g, sources, {1024, 5});
  ASSERT_TRUE(d.ok());
  std::optional<std::vector<Finding>> first;
  for (uint64_t run = 0; run < 100; ++run) {
    reference::RunOptions options;
    options.schedule = {reference::Schedule::Kind::Random, run};
    options.checks = run % 10 == 0;  // the race observers on every tenth run
    auto r = reference::run(bfs::graph_bfs_program(), d->inputs, d->grid, options);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(r->conforming());
    auto out = bfs::read_bfs_outputs(r->outputs, *d);
    ASSERT_TRUE(out.ok());
    if (!first) first = out->findings;
    ASSERT_EQ(out->findings, *first) << "run " << run;
  }
  EXPECT_FALSE(first->empty());
}

}  // namespace
}  // namespace vyre::gen
