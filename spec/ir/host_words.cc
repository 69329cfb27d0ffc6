#include "spec/ir/host_words.h"

namespace vyre {

ByteBuffer to_bytes(std::span<const uint32_t> words) {
  ByteBuffer out;
  out.reserve(words.size() * 4);
  for (uint32_t w : words) append_le(out, w, 4);
  return out;
}

std::vector<uint32_t> to_words(const ByteBuffer& bytes) {
  std::vector<uint32_t> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<uint32_t>(read_le(std::span<const uint8_t>(bytes).subspan(4 * i, 4)));
  }
  return out;
}

uint32_t word_at(const ByteBuffer& bytes, uint64_t index) {
  if (index >= (bytes.size() + 3) / 4) return 0;
  const size_t start = static_cast<size_t>(index) * 4;
  const size_t count = bytes.size() - start < 4 ? bytes.size() - start : 4;
  return static_cast<uint32_t>(read_le(std::span<const uint8_t>(bytes).subspan(start, count)));
}

void append_le(ByteBuffer& out, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

uint64_t read_le(std::span<const uint8_t> bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes.size() && i < 8; ++i) value |= uint64_t{bytes[i]} << (8 * i);
  return value;
}

}  // namespace vyre
