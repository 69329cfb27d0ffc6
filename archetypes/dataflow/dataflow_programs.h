// The dataflow engine's two IR programs (seed 000, level-synchronous
// multi-source BFS). Both declare the same buffers, so one BufferSet carries
// the state from dispatch to dispatch:
//   seed:  one invocation per source marks its start node visited and in the
//          frontier, and reports a start node that is a sink at depth 0.
//   level: one invocation per (frontier word, source) expands the frontier
//          nodes of that word over edges the transfer function lets through,
//          atomically marks new nodes visited and in next_frontier, sets
//          `changed`, and reports new sinks at depth level + 1.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "archetypes/dataflow/transfer_function.h"
#include "spec/ir/program.h"

namespace vyre::dataflow {

/// Invocations per workgroup on x.
inline constexpr uint32_t kEngineWorkgroupSize = 64;

/// Buffer names (BufferSet keys).
inline constexpr std::string_view kOffsets = "edge_offsets";
inline constexpr std::string_view kTargets = "edge_targets";
inline constexpr std::string_view kNodeData = "node_data";
inline constexpr std::string_view kNodeMetadata = "node_metadata";
inline constexpr std::string_view kSources = "source_nodes";
inline constexpr std::string_view kVisited = "visited";
inline constexpr std::string_view kFrontier = "frontier";
inline constexpr std::string_view kNextFrontier = "next_frontier";
inline constexpr std::string_view kChanged = "changed";
inline constexpr std::string_view kFindings = "findings";
inline constexpr std::string_view kFindingCount = "finding_count";
inline constexpr std::string_view kParams = "params";

/// Word positions inside the params uniform.
enum EngineParam : uint32_t {
  kNumSources = 0,
  kNumNodes = 1,
  kWordsPerSource = 2,
  kLevel = 3,
  kMaxFindings = 4,
  kEngineParamCount = 5,
};

/// The seed program (grid: ceil(num_sources / 64) x 1 x 1).
Program seed_program();

/// The level program with `transfer` spliced in (grid: ceil(words_per_source
/// / 64) x num_sources x 1).
Program level_program(const TransferFunction& transfer);

}  // namespace vyre::dataflow
