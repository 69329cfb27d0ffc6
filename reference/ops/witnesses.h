// TEST SUPPORT: seeded u32 witnesses for operator tests. A quarter of them
// come from the arithmetic archetypes A1-A7 (pinned spec section 8), the rest
// are uniform, so edge values meet random ones in every position.
#pragma once

#include <array>
#include <cstdint>

namespace vyre::reference {

/// Edge values of the archetypes: 0, 1, powers of two +-1, shift amounts
/// 31/32/33, MAX, the sign bit, and the bit patterns.
inline constexpr std::array<uint32_t, 20> kEdgeValues = {
    0u,          1u,          2u,          3u,          31u,         32u,         33u,
    0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu, 0x0000FFFFu, 0x00010000u,
    0x55555555u, 0xAAAAAAAAu, 0xF0F0F0F0u, 0x0F0F0F0Fu, 0xDEADBEEFu, 0xCAFEBABEu};

/// A deterministic stream of witnesses.
class WitnessStream {
 public:
  explicit WitnessStream(uint64_t seed) : state_(seed) {}
  /// The next witness.
  uint32_t next() {
    const uint64_t r = mix();
    if ((r & 3) == 0) return kEdgeValues[(r >> 2) % kEdgeValues.size()];
    return static_cast<uint32_t>(r >> 32);
  }

 private:
  uint64_t mix() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

}  // namespace vyre::reference
