// u32 words <-> little-endian host buffers (pinned spec section 1), for the
// host code of graph.bfs and the dataflow engine.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "spec/ir/host_abi.h"

namespace vyre::archetypes {

/// The little-endian bytes of `words`.
ByteBuffer to_bytes(std::span<const uint32_t> words);

/// `count` zero words as bytes.
ByteBuffer zero_words(uint64_t count);

/// The complete little-endian words of `bytes` (a trailing partial word is ignored).
std::vector<uint32_t> to_words(const ByteBuffer& bytes);

}  // namespace vyre::archetypes
