// The suite's own pseudo-random generator, so that a certification run is
// reproducible from `--seed` forever, whatever library versions are
// installed: xoshiro256** 1.0 (Blackman and Vigna, 2018), its state filled
// from the seed by SplitMix64, exactly as the authors' reference code
// recommends. Changing either algorithm or the seeding changes every
// generated program; prng_test.cc pins the first outputs.
#pragma once

#include <cstdint>
#include <span>

namespace vyre {

/// xoshiro256** seeded through SplitMix64; value type, cheap to copy.
class Prng {
 public:
  /// The stream for `seed`; every seed, 0 included, gives a full-period state.
  explicit Prng(uint64_t seed);

  /// The next 64 raw bits.
  uint64_t next_u64();
  /// The next 32 bits (the high half of next_u64, the better half).
  uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }
  /// Uniform in [0, n) by rejection (no modulo bias); 0 when n == 0.
  uint64_t below(uint64_t n);
  /// Uniform in [lo, hi], both inclusive; lo when hi < lo.
  uint64_t between(uint64_t lo, uint64_t hi);
  /// True with probability numerator / denominator.
  bool chance(uint64_t numerator, uint64_t denominator) { return below(denominator) < numerator; }
  /// One element of a non-empty span, uniformly.
  template <typename T>
  const T& pick(std::span<const T> items) {
    return items[below(items.size())];
  }
  /// An independent stream derived from this one (for sub-generators whose
  /// draws must not shift when the caller draws more).
  Prng split() { return Prng(next_u64()); }

 private:
  uint64_t s_[4];
};

/// One step of SplitMix64 (Steele, Lea and Flood, 2014): advances `state` and
/// returns the next output. Exposed because Prng's seeding is defined by it.
uint64_t splitmix64(uint64_t& state);

}  // namespace vyre
