#include "certify/suite/generated_graph_cases.h"

#include <algorithm>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/dataflow/dataflow_oracle.h"
#include "archetypes/graph/bfs_layout.h"
#include "certify/suite/graph_suite_cases.h"
#include "generators/graph_gen.h"
#include "generators/prng.h"
#include "generators/rmat.h"
#include "reference/graph/reachability.h"

namespace vyre::certify {
namespace {

constexpr uint32_t kSamplesPerShape = 6;
constexpr std::string_view kBfsOracle = "CPU oracle (reachable_nodes)";
constexpr std::string_view kEngineOracle = "CPU oracle (dataflow twin)";

/// One generated graph.bfs input.
struct GraphInput {
  std::string name;
  graph::CsrGraph graph;
  std::vector<uint32_t> sources;
  uint32_t max_depth = UINT32_MAX;
  /// Finding rows; 0 means room for every finding.
  uint32_t max_findings = 0;
  /// How the graph and sources are drawn.
  InputRecipe recipe;
};

/// graph.bfs on `in`, expected from the CPU oracle with graph.bfs's frontier
/// bound, so dropped nodes are counted as the program must count them.
SuiteCase bfs_case(const GraphInput& in) {
  std::string id = "L4/graph.bfs/" + in.name;
  auto reach = graph::reachable_nodes(
      in.graph, in.sources,
      {.max_depth = in.max_depth, .level_capacity = archetypes::bfs::kMaxBfsQueue});
  if (!reach)
    return broken_case(id, Level::L4, "the CPU oracle rejects it: " + reach.error().message);
  std::vector<graph::Finding> expected = graph::findings_of(in.graph, *reach);
  const auto all = static_cast<uint32_t>(std::max<size_t>(1, expected.size()));
  archetypes::bfs::BfsParams params{in.max_findings == 0 ? all : in.max_findings, in.max_depth};
  auto gc = archetypes::make_bfs_case(in.name, in.graph, in.sources, params, std::move(expected),
                                      static_cast<uint32_t>(reach->dropped));
  if (!gc) return broken_case(id, Level::L4, "graph.bfs rejects it: " + gc.error().message);
  SuiteCase c =
      bfs_suite_case(std::move(id), Level::L4, std::string(kBfsOracle), std::move(gc).value());
  c.input_recipe = in.recipe;
  return c;
}

/// The dataflow engine on the same graph, sanitizers as block_mask metadata,
/// expected from the engine's CPU twin.
SuiteCase engine_case(const GraphInput& in) {
  std::string id = "L4/dataflow/" + in.name;
  auto input = dataflow::input_from_bfs_labels(in.graph, in.sources, in.max_depth);
  if (!input) return broken_case(id, Level::L4, "no engine input: " + input.error().message);
  auto transfer = dataflow::make_transfer("block_mask");
  if (!transfer) return broken_case(id, Level::L4, transfer.error().message);
  auto expected = dataflow::dataflow_oracle(*input, *transfer);
  if (!expected)
    return broken_case(id, Level::L4, "the twin rejects it: " + expected.error().message);
  SuiteCase c = dataflow_suite_case(std::move(id), Level::L4, std::string(kEngineOracle),
                                    std::move(input).value(),
                                    dataflow::canonical_findings(std::move(expected).value()));
  c.input_recipe = in.recipe;
  c.input_recipe.generator += ", then dataflow::input_from_bfs_labels (block_mask transfer)";
  return c;
}

/// kSamplesPerShape samples of each shape, in table order, each drawn from
/// its own stream split off Prng(seed), so one sample's draws never shift
/// the next. Only the suite's own Prng is used: `--seed` names the same
/// graphs whatever library versions are installed.
std::vector<GraphInput> generated_inputs(uint64_t seed) {
  std::vector<GraphInput> out;
  Prng prng(seed);
  for (gen::GraphShape shape : gen::all_graph_shapes()) {
    for (uint32_t k = 0; k < kSamplesPerShape; ++k) {
      // Sizes from small to 100, so both tiny and the largest graphs of each
      // shape are drawn.
      const int size = 10 + static_cast<int>(90 * k / (kSamplesPerShape - 1));
      Prng stream = prng.split();
      gen::GraphSample sample = gen::draw_graph_sample(shape, stream, size);
      GraphInput in;
      in.name = "generated/" + std::string(gen::name_of(shape)) + "-" + std::to_string(k);
      in.graph = std::move(sample.graph);
      in.sources = std::move(sample.sources);
      in.max_depth = sample.max_depth;
      in.recipe = {"gen::draw_graph_sample(" + std::string(gen::name_of(shape)) + ", stream, " +
                       std::to_string(size) + ") where stream is split " +
                       std::to_string(out.size() + 1) +
                       " of Prng(seed).split() (certify/suite/generated_graph_cases.cc)",
                   seed};
      out.push_back(std::move(in));
    }
  }
  return out;
}

/// R-MAT graphs of 2^12 nodes, edge factor 8, 64 sources: once with room for
/// every finding, once capped at 256 rows (pinned spec section 7's rule).
std::vector<GraphInput> rmat_inputs(uint64_t seed) {
  constexpr uint32_t kScale = 12;
  constexpr uint32_t kSources = 64;
  graph::CsrGraph graph = gen::rmat_graph({kScale, 8, seed});
  std::vector<uint32_t> sources = gen::rmat_sources(graph, kSources, seed);
  const std::string name = "rmat/scale12-64sources";
  const InputRecipe recipe{
      "gen::rmat_graph({scale 12, edge factor 8, seed}) with 64 "
      "gen::rmat_sources(graph, 64, seed)",
      seed};
  return {GraphInput{name, graph, sources, UINT32_MAX, 0, recipe},
          GraphInput{name + "-max_findings256", std::move(graph), std::move(sources), UINT32_MAX,
                     256, recipe}};
}

}  // namespace

std::vector<SuiteCase> generated_graph_cases(uint64_t seed) {
  std::vector<SuiteCase> out;
  for (const GraphInput& in : generated_inputs(seed)) {
    out.push_back(bfs_case(in));
    out.push_back(engine_case(in));
  }
  std::vector<GraphInput> rmat = rmat_inputs(seed);
  for (const GraphInput& in : rmat) out.push_back(bfs_case(in));
  // The engine has no finding cap, so one R-MAT case covers it.
  out.push_back(engine_case(rmat.front()));
  return out;
}

}  // namespace vyre::certify
