// Dataflow engine inputs and checks the device backends' dataflow tests
// share (dataflow_opencl_test.cc, dataflow_vulkan_test.cc): a chain and a
// scrambled graph, a level dispatch's state after its seed, and the check that
// an engine on a backend gives the reference backend's levels and findings.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "archetypes/dataflow/dataflow_cases.h"
#include "archetypes/dataflow/dataflow_engine.h"
#include "archetypes/dataflow/dataflow_programs.h"
#include "archetypes/dataflow/transfer_function.h"
#include "backends/backend.h"
#include "backends/registry/registry.h"
#include "reference/graph/csr_graph.h"
#include "spec/ir/host_words.h"

namespace vyre::dataflow::testing {

inline constexpr uint32_t kChain = 300;

/// A chain 0 -> 1 -> ... -> n-1, source 0, sink n-1.
inline DataflowInput chain(uint32_t n) {
  std::vector<graph::Edge> edges;
  for (uint32_t i = 0; i + 1 < n; ++i) edges.push_back({i, i + 1});
  DataflowInput in;
  in.graph = *graph::try_to_csr(n, edges);
  in.graph.node_data.assign(n, 0);
  in.graph.node_data[0] = 1;
  in.graph.node_data[n - 1] = 2;
  in.sources = {0};
  return in;
}

/// A graph of `n` nodes where node i has edges to (i * 7 + 3) % n and
/// (i * 13 + 1) % n and every fifth node is a sink, with `sources`.
inline DataflowInput scrambled(uint32_t n, std::vector<uint32_t> sources, uint32_t max_depth) {
  std::vector<graph::Edge> edges;
  for (uint32_t i = 0; i < n; ++i) {
    edges.push_back({i, (i * 7 + 3) % n});
    edges.push_back({i, (i * 13 + 1) % n});
  }
  DataflowInput in;
  in.graph = *graph::try_to_csr(n, edges);
  in.graph.node_data.assign(n, 0);
  for (uint32_t i = 0; i < n; i += 5) in.graph.node_data[i] = 2;
  in.node_metadata.assign(n, 0);
  for (uint32_t i = 3; i < n; i += 11) in.node_metadata[i] = 1;  // Blocked by block_mask.
  in.sources = std::move(sources);
  in.max_depth = max_depth;
  return in;
}

/// The state of a level dispatch of chain(n) after its seed: node 0
/// visited and in the frontier.
inline BufferSet chain_state(uint32_t n) {
  const DataflowInput in = chain(n);
  const uint32_t wps = (n + 31) / 32;
  std::vector<uint32_t> bitmap(wps, 0);
  bitmap[0] = 1;
  BufferSet s;
  s[std::string(kOffsets)] = to_bytes(in.graph.offsets);
  s[std::string(kTargets)] = to_bytes(in.graph.targets);
  s[std::string(kNodeData)] = to_bytes(in.graph.node_data);
  s[std::string(kNodeMetadata)] = zero_words(n);
  s[std::string(kSources)] = to_bytes(in.sources);
  s[std::string(kVisited)] = to_bytes(bitmap);
  s[std::string(kFrontier)] = to_bytes(bitmap);
  s[std::string(kNextFrontier)] = zero_words(wps);
  s[std::string(kChanged)] = zero_words(1);
  s[std::string(kFindings)] = zero_words(4);
  s[std::string(kFindingCount)] = zero_words(1);
  s[std::string(kParams)] = to_bytes(std::vector<uint32_t>{1, n, wps, 0, 1});
  return s;
}

/// The engine (block_mask) on `backend` gives the reference backend's levels
/// and findings on chains, scrambled graphs and every catalogue dataflow case,
/// twice each (the second run binds what the first left).
inline void expect_engine_matches_reference(Backend& backend) {
  auto reference = make_backend("reference");
  ASSERT_TRUE(reference.ok());
  auto on_device = DataflowEngine::create(backend, *make_transfer("block_mask"));
  auto on_reference = DataflowEngine::create(**reference, *make_transfer("block_mask"));
  ASSERT_TRUE(on_device && on_reference);
  std::vector<std::pair<std::string, DataflowInput>> inputs = {
      {"chain", chain(kChain)},
      {"chain to depth 40", chain(kChain)},
      {"chain of 2", chain(2)},
      {"scrambled", scrambled(500, {0, 17, 123}, UINT32_MAX)},
      {"scrambled to depth 3", scrambled(500, {4, 9}, 3)},
      {"scrambled to depth 0", scrambled(100, {1}, 0)},
  };
  inputs[1].second.max_depth = 40;
  auto cases = dataflow_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  for (const DataflowCase& c : *cases) inputs.emplace_back(c.name, c.input);
  for (const auto& [name, input] : inputs) {
    auto expected = on_reference->run(input);
    ASSERT_TRUE(expected.ok()) << name << ": " << expected.error().message;
    for (int run = 0; run < 2; ++run) {
      auto observed = on_device->run(input);
      ASSERT_TRUE(observed.ok()) << name << ": " << observed.error().message;
      EXPECT_EQ(observed->levels, expected->levels) << name;
      EXPECT_EQ(observed->findings, expected->findings) << name;
    }
  }
}

/// The budget every backend here is built with for
/// expect_loop_past_budget_is_timeout: fewer iterations than a level's loop
/// over a frontier word's 32 bits.
inline constexpr uint32_t kSmallLoopBudget = 20;

/// The engine on `backend` (built with loop_iteration_budget =
/// kSmallLoopBudget) ends a chain's run as a Timeout naming the budget.
inline void expect_loop_past_budget_is_timeout(Backend& backend) {
  auto engine = DataflowEngine::create(backend, *make_transfer("block_mask"));
  ASSERT_TRUE(engine.ok()) << engine.error().message;
  auto r = engine->run(chain(kChain));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().status, Status::Timeout) << r.error().message;
  const std::string named = "more than " + std::to_string(kSmallLoopBudget) + " loop iterations";
  EXPECT_NE(r.error().message.find(named), std::string::npos) << r.error().message;
}

}  // namespace vyre::dataflow::testing
