// The buffer interface of graph.bfs: bindings 0-7 exactly as seed 001 lists
// them, plus this suite's extensions at 8 and 9 (pinned spec section 7).
// archetypes/graph/BFS.md explains each choice.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "spec/ir/types.h"

namespace vyre::archetypes::bfs {

/// Frontier entries kept per BFS level and source (seed 001's queue size).
inline constexpr uint32_t kMaxBfsQueue = 4096;
/// Invocations per workgroup; one invocation runs one source.
inline constexpr uint32_t kWorkgroupSize = 64;
/// Queue scratch per source: two level buffers of kMaxBfsQueue entries.
inline constexpr uint32_t kQueueWordsPerSource = 2 * kMaxBfsQueue;

/// Buffer names, used as BufferSet keys.
inline constexpr std::string_view kNodeLabels = "node_labels";
inline constexpr std::string_view kEdgeOffsets = "edge_offsets";
inline constexpr std::string_view kEdgeTargets = "edge_targets";
inline constexpr std::string_view kSourceNodes = "source_nodes";
inline constexpr std::string_view kFindings = "findings";
inline constexpr std::string_view kFindingCount = "finding_count";
inline constexpr std::string_view kParams = "params";
inline constexpr std::string_view kVisitedSet = "visited_set";
inline constexpr std::string_view kQueue = "bfs_queue";
inline constexpr std::string_view kQueueOverflow = "queue_overflow";

/// Word positions inside the params uniform (seed 001's field order).
enum ParamWord : uint32_t {
  kParamNumSources = 0,
  kParamNumNodes = 1,
  kParamMaxFindings = 2,
  kParamMaxDepth = 3,
  kParamWordsPerSource = 4,
  kParamWordCount = 5,
};

/// One buffer of the interface.
struct BindingRow {
  uint32_t binding;
  std::string_view name;
  BufferAccess access;
  DataType element;
  /// Declared element count; 0 = sized by the host.
  uint32_t count;
  /// True for the bindings this suite adds past seed 001's eight.
  bool extension;
  std::string_view content;
};

/// The whole interface, by binding; the program and the docs are built from it.
inline constexpr std::array<BindingRow, 10> kBindings = {{
    {0, kNodeLabels, BufferAccess::ReadOnly, DataType::U32, 0, false,
     "per-node label; role in bits 16..23"},
    {1, kEdgeOffsets, BufferAccess::ReadOnly, DataType::U32, 0, false,
     "CSR offsets, num_nodes + 1 words"},
    {2, kEdgeTargets, BufferAccess::ReadOnly, DataType::U32, 0, false, "CSR targets"},
    {3, kSourceNodes, BufferAccess::ReadOnly, DataType::U32, 0, false, "start node per source"},
    {4, kFindings, BufferAccess::ReadWrite, DataType::U32, 0, false,
     "4 words per finding: (source, sink, depth, source_idx), the bytes of vec4<u32>"},
    {5, kFindingCount, BufferAccess::ReadWrite, DataType::U32, 1, false,
     "atomic finding counter; counts past max_findings"},
    {6, kParams, BufferAccess::Uniform, DataType::U32, kParamWordCount, false,
     "{num_sources, num_nodes, max_findings, max_depth, words_per_source}"},
    {7, kVisitedSet, BufferAccess::ReadWrite, DataType::U32, 0, false,
     "per-source visited bitmaps, words_per_source words each"},
    {8, kQueue, BufferAccess::ReadWrite, DataType::U32, 0, true,
     "queue scratch, kQueueWordsPerSource words per source"},
    {9, kQueueOverflow, BufferAccess::ReadWrite, DataType::U32, 1, true,
     "atomic count of nodes dropped from a full level"},
}};

}  // namespace vyre::archetypes::bfs
