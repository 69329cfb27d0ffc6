// Parity on thousands of generated graphs, on the reference interpreter:
// every sample runs graph.bfs (IR program), the CPU oracle (reachable_nodes)
// and the dataflow engine (through the reference backend), which must agree
// where their contracts overlap; on overflow (a small max_findings, a level
// past MAX_BFS_QUEUE) pinned spec section 7's rules; and graph.bfs and the
// engine give identical canonical findings under every schedule and grid.
//
// Where the contracts differ: the engine has no finding cap and no frontier
// queue (generated graphs are far below MAX_BFS_QUEUE nodes, so the program
// never drops a node here either), and its sanitizers block entry through the
// transfer function while graph.bfs sanitizers block exit. Findings agree for
// every source except a sanitizer start node, which graph.bfs never expands;
// those sources are checked against the engine's own CPU twin instead.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>

#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/dataflow_oracle.h"
#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_layout.h"
#include "archetypes/graph/bfs_program.h"
#include "backends/registry/registry.h"
#include "generators/graph_gen_rc.h"
#include "generators/property_check.h"
#include "generators/rmat.h"
#include "reference/graph/node_label.h"
#include "reference/graph/reachability.h"
#include "reference/interpreter.h"
#include "spec/validate/validator.h"

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
  // The queue's raw order is the schedule's by design; these tests compare
  // the decoded findings across schedules themselves.
  options.schedule_probes = 0;
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

/// The block_mask engine on the reference backend, shared by the properties.
struct EngineOnReference {
  std::unique_ptr<Backend> backend;
  dataflow::TransferFunction transfer;
  std::optional<dataflow::DataflowEngine> engine;
};

EngineOnReference engine_on(std::unique_ptr<Backend> backend) {
  EngineOnReference e{std::move(backend), *dataflow::make_transfer("block_mask"), std::nullopt};
  auto engine = dataflow::DataflowEngine::create(*e.backend, e.transfer);
  EXPECT_TRUE(engine.ok()) << engine.error().message;
  if (engine) e.engine.emplace(std::move(*engine));
  return e;
}

/// The engine's findings for a sample, checked against its CPU twin.
std::vector<Finding> engine_findings(const EngineOnReference& e, const GraphSample& s) {
  auto input = dataflow::input_from_bfs_labels(s.graph, s.sources, s.max_depth);
  RC_ASSERT(input.ok());
  auto ran = e.engine->run(*input);
  if (!ran) RC_FAIL(ran.error().message);
  auto twin = dataflow::dataflow_oracle(*input, e.transfer);
  RC_ASSERT(twin.ok());
  RC_ASSERT(ran->findings == *twin);
  return ran->findings;
}

/// The engine's rows graph.bfs also makes: all but those of sanitizer start
/// nodes (see the top of this file).
std::vector<Finding> overlap_with_bfs(const GraphSample& s, const std::vector<Finding>& engine) {
  std::vector<Finding> overlap;
  for (const Finding& f : engine) {
    const auto role = graph::role_bits(s.graph.node_data[s.sources[f.source_idx]]);
    if (role != static_cast<uint32_t>(graph::NodeRole::Sanitizer)) overlap.push_back(f);
  }
  return overlap;
}

/// Samples per shape of the three-leg property: 5 shapes x 240 = 1200 per leg.
constexpr int kSamplesPerShape = 240;

TEST(GraphParity, GraphBfsOracleAndEngineAgreeOnEverySample) {
  const EngineOnReference e = engine_on(std::move(make_backend("reference").value()));
  ASSERT_TRUE(e.engine.has_value());
  for (GraphShape shape : all_graph_shapes()) {
    check_property(kSamplesPerShape, [&, shape] {
      const GraphSample s = *graph_sample(shape);
      const std::vector<Finding> oracle = oracle_findings(s);
      RC_TAG(oracle.empty() ? "no finding" : "findings");
      const bfs::BfsDispatch d = prepare(s);
      const bfs::BfsOutcome got = run_bfs(d, d.grid);
      RC_ASSERT(got.findings == oracle);
      RC_ASSERT(got.finding_count == got.findings.size());
      RC_ASSERT(got.queue_overflow == 0u);
      RC_ASSERT(overlap_with_bfs(s, engine_findings(e, s)) == oracle);
    });
  }
}

// Pinned spec section 7: past max_findings the count keeps counting and only
// max_findings rows are written, which ones depending on the schedule. The
// full set comes from the CPU oracle.
TEST(GraphParity, SmallMaxFindingsKeepsTheCountAndWritesMembersOfTheFullSet) {
  check_property(1000, [] {
    const GraphSample s = *any_graph_sample();
    const std::vector<Finding> full = oracle_findings(s);
    const auto max_findings =
        *rc::gen::inRange<uint32_t>(1, static_cast<uint32_t>(full.size()) + 2);
    RC_TAG(full.size() > max_findings ? "overflow" : "fits");
    auto d = bfs::prepare_bfs(s.graph, s.sources, {max_findings, s.max_depth});
    if (!d) RC_FAIL(d.error().message);
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    const bfs::BfsOutcome got = run_bfs(*d, d->grid, {reference::Schedule::Kind::Random, seed});
    RC_ASSERT(got.finding_count == full.size());
    RC_ASSERT(got.truncated == (full.size() > max_findings));
    RC_ASSERT(got.findings.size() == std::min<size_t>(full.size(), max_findings));
    for (size_t i = 0; i < got.findings.size(); ++i) {
      RC_ASSERT(std::find(full.begin(), full.end(), got.findings[i]) != full.end());
      if (i > 0) RC_ASSERT(!(got.findings[i] == got.findings[i - 1]));
    }
  });
}

// A generated R-MAT graph whose BFS has a level of more than MAX_BFS_QUEUE
// expandable nodes. max_depth stops expansion right after that level, so the
// nodes dropped from it (expandable nodes of the level minus 4096, per source)
// do not depend on which nodes a traversal keeps; everything up to that level
// is reached by every traversal alike.
TEST(GraphParity, LevelPastMaxBfsQueueIsCountedAlikeByOracleAndProgram) {
  const graph::CsrGraph g = rmat_graph({.scale = 14, .edge_factor = 8, .seed = 7});
  const std::vector<uint32_t> sources = rmat_sources(g, 2, 7);
  ASSERT_EQ(sources.size(), 2u);
  auto unbounded = graph::reachable_nodes(g, sources);
  ASSERT_TRUE(unbounded.ok()) << unbounded.error().message;
  // Expandable nodes per (source, depth), from the traversal with no queue.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> level_size;
  for (const graph::ReachedNode& r : unbounded->reached) {
    if (graph::role_bits(g.node_data[r.node]) !=
        static_cast<uint32_t>(graph::NodeRole::Sanitizer)) {
      ++level_size[{r.source_idx, r.depth}];
    }
  }
  // The first depth at which some source's level passes the queue.
  uint32_t wide = UINT32_MAX;
  for (const auto& [at, size] : level_size) {
    if (size > bfs::kMaxBfsQueue) wide = std::min(wide, at.second);
  }
  ASSERT_NE(wide, UINT32_MAX) << "the R-MAT graph has no level past MAX_BFS_QUEUE";
  uint64_t expected_drops = 0;
  for (uint32_t idx = 0; idx < sources.size(); ++idx) {
    const uint32_t size = level_size[{idx, wide}];
    expected_drops += size > bfs::kMaxBfsQueue ? size - bfs::kMaxBfsQueue : 0;
  }
  ASSERT_GT(expected_drops, 0u);
  const uint32_t max_depth = wide + 1;
  auto oracle = graph::reachable_nodes(
      g, sources, {.max_depth = max_depth, .level_capacity = bfs::kMaxBfsQueue});
  ASSERT_TRUE(oracle.ok());
  EXPECT_EQ(oracle->dropped, expected_drops);
  auto d = bfs::prepare_bfs(g, sources, {1u << 16, max_depth});
  ASSERT_TRUE(d.ok()) << d.error().message;
  reference::RunOptions options;
  options.checks = false;  // a single large run; races are covered on small graphs
  auto run = reference::run(bfs::graph_bfs_program(), d->inputs, d->grid, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto got = bfs::read_bfs_outputs(run->outputs, *d);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got->queue_overflow, expected_drops);
  // Findings up to the wide level do not depend on which nodes were dropped.
  auto up_to = [&](const std::vector<Finding>& all) {
    std::vector<Finding> kept;
    for (const Finding& f : all) {
      if (f.depth <= wide) kept.push_back(f);
    }
    return kept;
  };
  const std::vector<Finding> expected = graph::findings_of(g, *oracle);
  EXPECT_FALSE(up_to(expected).empty());
  EXPECT_EQ(up_to(got->findings), up_to(expected));
  EXPECT_FALSE(got->truncated);
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

/// The reference interpreter behind the Backend interface under a chosen
/// schedule, with `extra` workgroups added on each grid axis (the reference
/// backend always runs the canonical schedule on the engine's own grid).
class ScheduledReference final : public Backend {
 public:
  ScheduledReference(reference::Schedule schedule, std::array<uint32_t, 3> extra)
      : schedule_(schedule), extra_(extra) {}
  std::string name() const override { return "scheduled-reference"; }
  Capabilities probe() override { return make_backend("reference").value()->probe(); }
  CompileOutcome compile(const Program& program) override {
    if (!validate(program).empty()) return {Status::CompileError, "invalid program", nullptr};
    return {Status::Ok, "", std::make_shared<Compiled>(program)};
  }
  DispatchOutcome dispatch(const CompiledProgram& compiled, const BufferSet& inputs,
                           const Grid& grid) override {
    Grid wider = grid;
    for (size_t axis = 0; axis < 3; ++axis) wider.workgroups[axis] += extra_[axis];
    reference::RunOptions options;
    options.schedule = schedule_;
    options.strict_oob = true;
    options.schedule_probes = 0;  // the engine's findings are compared canonically
    const auto& program = static_cast<const Compiled&>(compiled).program;
    auto run = reference::run(program, inputs, wider, options);
    if (!run) return {Status::Error, run.error().message, {}, {}};
    if (!run->conforming()) return {Status::Error, run->violations.front().message, {}, {}};
    return {Status::Ok, "", std::move(run->outputs), {}};
  }

 private:
  struct Compiled final : CompiledProgram {
    explicit Compiled(Program p) : program(std::move(p)) {}
    Program program;
  };
  reference::Schedule schedule_;
  std::array<uint32_t, 3> extra_;
};

// The engine's level dispatches race for finding slots and frontier bits;
// sorted findings must not depend on the interleaving or on idle workgroups.
TEST(GraphParity, DataflowEngineIsDeterministicAcrossSchedulesAndGrids) {
  using Kind = reference::Schedule::Kind;
  const EngineOnReference canonical = engine_on(std::move(make_backend("reference").value()));
  const EngineOnReference reversed = engine_on(std::make_unique<ScheduledReference>(
      reference::Schedule{Kind::Reversed, 0}, std::array<uint32_t, 3>{0, 0, 0}));
  ASSERT_TRUE(canonical.engine && reversed.engine);
  check_property(300, [&] {
    const GraphSample s = *any_graph_sample();
    const std::vector<Finding> expected = engine_findings(canonical, s);
    RC_ASSERT(engine_findings(reversed, s) == expected);
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    const std::array<uint32_t, 3> extra = {*rc::gen::inRange<uint32_t>(0, 3),
                                           *rc::gen::inRange<uint32_t>(0, 3),
                                           *rc::gen::inRange<uint32_t>(0, 2)};
    const EngineOnReference random = engine_on(
        std::make_unique<ScheduledReference>(reference::Schedule{Kind::Random, seed}, extra));
    RC_ASSERT(random.engine.has_value());
    RC_ASSERT(engine_findings(random, s) == expected);
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
    options.schedule_probes = 0;     // this loop is the schedule probe, canonically
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
