// Prng's outputs are pinned: certification is reproducible from `--seed`
// only while these hold. Expected values come from the algorithms' published
// test vectors and from an independent Python implementation:
//   M = 2**64 - 1
//   def sm(s): s = (s + 0x9e3779b97f4a7c15) & M; z = s
//     z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
//     z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M; return s, z ^ (z >> 31)
//   xoshiro256** next: r = rotl(s1 * 5, 7) * 9, then the reference update.
// The same Python gives 11520, 0, 1509978240, 1215971899390074240 from the
// state {1, 2, 3, 4}, the vector the authors' code produces.
#include "generators/prng.h"

#include <gtest/gtest.h>

#include <array>
#include <set>

namespace vyre {
namespace {

TEST(Prng, SplitMix64MatchesItsPublishedVectorForSeedZero) {
  uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafull);
  EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(splitmix64(state), 0x06c45d188009454full);
}

TEST(Prng, FirstOutputsArePinnedForSeedsZeroAnd42) {
  const std::array<uint64_t, 4> seed0 = {0x99ec5f36cb75f2b4ull, 0xbf6e1f784956452aull,
                                         0x1a5f849d4933e6e0ull, 0x6aa594f1262d2d2cull};
  const std::array<uint64_t, 4> seed42 = {0x15780b2e0c2ec716ull, 0x6104d9866d113a7eull,
                                          0xae17533239e499a1ull, 0xecb8ad4703b360a1ull};
  Prng a(0);
  for (uint64_t expected : seed0) EXPECT_EQ(a.next_u64(), expected);
  Prng b(42);
  for (uint64_t expected : seed42) EXPECT_EQ(b.next_u64(), expected);
}

TEST(Prng, BelowStaysInRangeAndReachesEveryValue) {
  Prng rng(7);
  std::set<uint64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t v = rng.below(13);
    ASSERT_LT(v, 13u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 13u);
  EXPECT_EQ(rng.below(0), 0u);
  EXPECT_EQ(rng.below(1), 0u);
}

TEST(Prng, BetweenIsInclusiveAndHandlesTheFullRange) {
  Prng rng(9);
  std::set<uint64_t> seen;
  for (int i = 0; i < 500; ++i) {
    const uint64_t v = rng.between(3, 5);
    ASSERT_GE(v, 3u);
    ASSERT_LE(v, 5u);
    seen.insert(v);
  }
  EXPECT_EQ(seen, (std::set<uint64_t>{3, 4, 5}));
  EXPECT_EQ(rng.between(8, 2), 8u);
  rng.between(0, UINT64_MAX);  // must not divide by zero
}

TEST(Prng, SameSeedSameStreamAndSplitIsIndependent) {
  Prng a(123);
  Prng b(123);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next_u64(), b.next_u64());
  Prng child = a.split();
  EXPECT_NE(child.next_u64(), a.next_u64());
}

}  // namespace
}  // namespace vyre
