// Traversed edges per second of the three graph.bfs/reachability engines on
// R-MAT graphs (Graph500 a=0.57 b=0.19 c=0.19, edge factor 8, seeded):
//   cpu_oracle        reachable_nodes (graph.bfs semantics, MAX_BFS_QUEUE per level)
//   interpreter_bfs   the graph.bfs IR program on the reference interpreter
//                     (race observers off: they cost more than the run)
//   dataflow_engine   the level-synchronous engine on the "reference" backend
// Edges traversed = out-edges examined, counted by the CPU oracle with the
// engine's own semantics (the engine keeps no frontier queue).
// Combinations whose estimated interpreter work passes a budget are not
// registered and are listed on stderr, so the run stays affordable;
// --vyre_budget_scale=N multiplies the budgets.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>

#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/graph/bfs_dispatch.h"
#include "archetypes/graph/bfs_layout.h"
#include "archetypes/graph/bfs_program.h"
#include "backends/registry/registry.h"
#include "generators/rmat.h"
#include "reference/graph/reachability.h"
#include "reference/interpreter.h"

namespace vyre::bench {
namespace {

namespace bfs = archetypes::bfs;
using gen::rmat_graph;
using gen::rmat_sources;

constexpr uint64_t kSeed = 20240601;
constexpr uint32_t kScales[] = {12, 14, 16, 18};
constexpr uint32_t kSourceCounts[] = {1, 32, 1024};

/// One R-MAT graph and source set, built once per (scale, sources).
struct Workload {
  graph::CsrGraph graph;
  std::vector<uint32_t> sources;
  uint64_t bfs_edges = 0;  ///< edges graph.bfs examines (level capacity MAX_BFS_QUEUE)
  uint64_t dropped = 0;    ///< nodes graph.bfs drops from full levels
};

const Workload& workload(uint32_t scale, uint32_t sources) {
  static std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<Workload>> cache;
  auto& slot = cache[{scale, sources}];
  if (!slot) {
    slot = std::make_unique<Workload>();
    slot->graph = rmat_graph({scale, 8, kSeed + scale});
    slot->sources = rmat_sources(slot->graph, sources, kSeed);
    auto capped =
        graph::reachable_nodes(slot->graph, slot->sources, {.level_capacity = bfs::kMaxBfsQueue});
    slot->bfs_edges = capped->edges_scanned;
    slot->dropped = capped->dropped;
  }
  return *slot;
}

void report(benchmark::State& state, uint64_t edges_per_iteration) {
  state.counters["TEPS"] = benchmark::Counter(
      static_cast<double>(edges_per_iteration) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["edges"] = static_cast<double>(edges_per_iteration);
}

void cpu_oracle(benchmark::State& state, uint32_t scale, uint32_t sources) {
  const Workload& w = workload(scale, sources);
  for (auto _ : state) {
    auto r = graph::reachable_nodes(w.graph, w.sources, {.level_capacity = bfs::kMaxBfsQueue});
    benchmark::DoNotOptimize(r);
  }
  report(state, w.bfs_edges);
  state.counters["dropped"] = static_cast<double>(w.dropped);
}

void interpreter_bfs(benchmark::State& state, uint32_t scale, uint32_t sources) {
  const Workload& w = workload(scale, sources);
  const uint32_t room = static_cast<uint32_t>(
      std::min<uint64_t>(uint64_t{w.sources.size()} * w.graph.node_count, 1u << 20));
  auto d = bfs::prepare_bfs(w.graph, w.sources, {room, UINT32_MAX});
  if (!d) {
    state.SkipWithError(d.error().message.c_str());
    return;
  }
  reference::RunOptions options;
  options.checks = false;
  const Program program = bfs::graph_bfs_program();
  for (auto _ : state) {
    auto r = reference::run(program, d->inputs, d->grid, options);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(r);
  }
  report(state, w.bfs_edges);
  state.counters["dropped"] = static_cast<double>(w.dropped);
}

void dataflow_engine(benchmark::State& state, uint32_t scale, uint32_t sources) {
  const Workload& w = workload(scale, sources);
  auto backend = make_backend("reference");
  auto transfer = dataflow::make_transfer("block_mask");
  auto engine = dataflow::DataflowEngine::create(**backend, *transfer);
  auto input = dataflow::input_from_bfs_labels(w.graph, w.sources, UINT32_MAX);
  if (!engine || !input) {
    state.SkipWithError(!engine ? engine.error().message.c_str() : input.error().message.c_str());
    return;
  }
  // The engine keeps no frontier queue: its edges are counted without a cap.
  const uint64_t edges = graph::reachable_nodes(w.graph, w.sources)->edges_scanned;
  uint32_t levels = 0;
  for (auto _ : state) {
    auto r = engine->run(*input);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    levels = r->levels;
  }
  report(state, edges);
  state.counters["levels"] = levels;
}

/// Rough interpreter work of one graph.bfs run, from the sizes only: every
/// source may reach the whole giant component (8 edges per node), about 30
/// lane-operations per edge. The interpreter does about 1.2e8 a second on the
/// development machine.
double interpreter_work(uint32_t scale, uint32_t sources) {
  const double nodes = static_cast<double>(uint64_t{1} << scale);
  return sources * (nodes * 8 * 30 + nodes / 32 * 4);
}

/// The engine on the reference backend measured about 30 times slower per
/// edge (race observers on, one dispatch and buffer round trip per level).
double engine_work(uint32_t scale, uint32_t sources) {
  return 30 * interpreter_work(scale, sources);
}

double budget_scale(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--vyre_budget_scale=", 20) == 0) return std::atof(argv[i] + 20);
  }
  return 1;
}

void register_all(double scale_budget) {
  // About 20 s of interpreter time per run at the measured rates.
  const double budget = 2.5e9 * scale_budget;
  for (uint32_t scale : kScales) {
    for (uint32_t sources : kSourceCounts) {
      const std::string suffix =
          "/nodes:2^" + std::to_string(scale) + "/sources:" + std::to_string(sources);
      benchmark::RegisterBenchmark(("cpu_oracle" + suffix).c_str(), cpu_oracle, scale, sources)
          ->Unit(benchmark::kMillisecond);
      if (interpreter_work(scale, sources) <= budget) {
        benchmark::RegisterBenchmark(("interpreter_bfs" + suffix).c_str(), interpreter_bfs, scale,
                                     sources)
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1);
      } else {
        std::fprintf(stderr, "skipped interpreter_bfs%s: ~%.0e lane-ops\n", suffix.c_str(),
                     interpreter_work(scale, sources));
      }
      if (engine_work(scale, sources) <= budget) {
        benchmark::RegisterBenchmark(("dataflow_engine" + suffix).c_str(), dataflow_engine, scale,
                                     sources)
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1);
      } else {
        std::fprintf(stderr, "skipped dataflow_engine%s: ~%.0e lane-ops\n", suffix.c_str(),
                     engine_work(scale, sources));
      }
    }
  }
}

}  // namespace
}  // namespace vyre::bench

int main(int argc, char** argv) {
  vyre::bench::register_all(vyre::bench::budget_scale(argc, argv));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
