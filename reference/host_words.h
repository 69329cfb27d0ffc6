// Host buffers as u32 words: the little-endian byte vectors of the host ABI
// (spec/ir/host_abi.h) converted to and from words, for tests, spec tables
// and printing.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "spec/ir/host_abi.h"

namespace vyre::reference {

/// Little-endian bytes of `words`.
inline ByteBuffer to_bytes(std::span<const uint32_t> words) {
  ByteBuffer out;
  out.reserve(words.size() * 4);
  for (uint32_t w : words) {
    for (uint32_t b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>(w >> (8 * b)));
  }
  return out;
}
/// Little-endian bytes of a word list.
inline ByteBuffer to_bytes(std::initializer_list<uint32_t> words) {
  return to_bytes(std::span<const uint32_t>(words.begin(), words.size()));
}

/// The whole words of `bytes` (a trailing partial word is left out).
inline std::vector<uint32_t> to_words(const ByteBuffer& bytes) {
  std::vector<uint32_t> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = uint32_t{bytes[4 * i]} | uint32_t{bytes[4 * i + 1]} << 8 |
             uint32_t{bytes[4 * i + 2]} << 16 | uint32_t{bytes[4 * i + 3]} << 24;
  }
  return out;
}

}  // namespace vyre::reference
