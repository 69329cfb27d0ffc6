// Host buffers as words: the little-endian byte vectors of the host ABI
// (pinned spec section 1) converted to and from u32 words and wider
// integers. The one converter every layer uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "spec/ir/host_abi.h"

namespace vyre {

/// Little-endian bytes of `words`.
ByteBuffer to_bytes(std::span<const uint32_t> words);
/// Little-endian bytes of a word list.
inline ByteBuffer to_bytes(std::initializer_list<uint32_t> words) {
  return to_bytes(std::span<const uint32_t>(words.begin(), words.size()));
}

/// The whole words of `bytes` (a trailing partial word is left out).
std::vector<uint32_t> to_words(const ByteBuffer& bytes);

/// Word `index` of `bytes`, bytes past the end read as zero.
uint32_t word_at(const ByteBuffer& bytes, uint64_t index);

/// `count` zero words as bytes.
inline ByteBuffer zero_words(uint64_t count) {
  return ByteBuffer(count * 4, 0);
}

/// Appends the low `width` bytes of `value`, least significant first.
void append_le(ByteBuffer& out, uint64_t value, size_t width);

/// The little-endian value of `bytes` (at most 8 of them).
uint64_t read_le(std::span<const uint8_t> bytes);

}  // namespace vyre
