// A graph.bfs finding and its canonical order (seed 001, pinned spec section 7).
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <vector>

namespace vyre::graph {

/// One source reaching one sink: the row vec4<u32>(source, sink, depth, source_idx).
struct Finding {
  uint32_t source_node = 0;
  uint32_t sink_node = 0;
  /// Edges on the shortest path from the source.
  uint32_t depth = 0;
  /// Position of the source in the source list.
  uint32_t source_idx = 0;

  /// Canonical order: (source_node, sink_node, depth, source_idx).
  auto operator<=>(const Finding&) const = default;
};

/// Words per finding row in the findings buffer.
inline constexpr uint32_t kFindingWords = 4;

/// Sorts findings into canonical order.
void sort_canonical(std::vector<Finding>& findings);

/// Decodes `count` rows of four words each (source, sink, depth, source_idx).
std::vector<Finding> findings_from_words(std::span<const uint32_t> words, uint32_t count);

/// Encodes findings as rows of four words.
std::vector<uint32_t> findings_to_words(std::span<const Finding> findings);

}  // namespace vyre::graph
