#include "archetypes/support/host_words.h"

namespace vyre::archetypes {

ByteBuffer to_bytes(std::span<const uint32_t> words) {
  ByteBuffer out(words.size() * 4);
  for (size_t i = 0; i < words.size(); ++i) {
    for (size_t b = 0; b < 4; ++b) out[i * 4 + b] = static_cast<uint8_t>(words[i] >> (8 * b));
  }
  return out;
}

ByteBuffer zero_words(uint64_t count) {
  return ByteBuffer(count * 4, 0);
}

std::vector<uint32_t> to_words(const ByteBuffer& bytes) {
  std::vector<uint32_t> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i) {
    uint32_t w = 0;
    for (size_t b = 0; b < 4; ++b) w |= uint32_t{bytes[i * 4 + b]} << (8 * b);
    out[i] = w;
  }
  return out;
}

}  // namespace vyre::archetypes
