// L5's cases: derived from --seed deterministically (seeds and program text
// pinned), nothing discarded, and the default size reaching the whole
// coverage universe.
#include "certify/suite/random_program_cases.h"

#include <gtest/gtest.h>

#include <set>

#include "certify/run/random_coverage.h"
#include "generators/wellformed_program.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

uint64_t fnv1a(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char ch : text) {
    h ^= static_cast<uint8_t>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}

TEST(RandomProgramCases, SeedsAreSplitMix64Outputs) {
  // SplitMix64 seeded with 1, outputs 0..2 (an independent Python
  // implementation of Steele, Lea and Flood's algorithm gave these).
  EXPECT_EQ(random_program_seed(1, 0), 0x910a2dec89025cc1ULL);
  EXPECT_EQ(random_program_seed(1, 1), 0xbeeb8da1658eec67ULL);
  EXPECT_EQ(random_program_seed(1, 2), 0xf893a2eefb32555eULL);
  EXPECT_EQ(random_program_id(123), "L5/random/000123");
}

TEST(RandomProgramCases, ProgramZeroOfSeedOneIsPinned) {
  // A golden hash of the text: any change to the generator, the PRNG or the
  // text format changes what L5 certifies, and must be made on purpose.
  const TestCase tc = generate_wellformed_case(random_program_seed(1, 0));
  EXPECT_EQ(fnv1a(print_case(tc)), 0xea4e7dc4a68a573dULL) << print_case(tc);
}

TEST(RandomProgramCases, SameSeedSameCases) {
  RandomProgramTally a_tally, b_tally;
  const auto a = random_program_cases(7, 12, a_tally);
  const auto b = random_program_cases(7, 12, b_tally);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 12u);  // originals and metamorphic variants
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].id, b[i].id);
    EXPECT_EQ(print_case(dispatch_of(a[i])->test_case), print_case(dispatch_of(b[i])->test_case));
    EXPECT_TRUE(reduces_failures(a[i]));
    EXPECT_EQ(a[i].level, Level::L5);
  }
  EXPECT_EQ(a_tally.generated, 12u);
  EXPECT_EQ(a_tally.discarded, 0u);
  EXPECT_EQ(a.front().id, "L5/random/000000");
  // A variant expects the original's reference bytes, and carries it.
  for (const SuiteCase& c : a) {
    if (c.id.size() <= std::string("L5/random/000000").size()) continue;
    ASSERT_NE(original_of(c), nullptr) << c.id;
    EXPECT_TRUE(dispatch_of(c)->test_case.expected.has_value()) << c.id;
  }
}

// L5 certifies a rotation of the rewrites: a few per program, every rewrite
// on some programs of a run.
TEST(RandomProgramCases, EachProgramRunsARotationOfItsRewrites) {
  std::set<std::string> seen;
  for (uint32_t i = 0; i < 40; ++i) {
    const uint64_t seed = random_program_seed(1, i);
    const TestCase tc = generate_wellformed_case(seed);
    const std::vector<MetamorphicVariant> all = metamorphic_variants(tc, seed);
    const std::vector<MetamorphicVariant> kept = random_program_rewrites(tc, seed);
    ASSERT_EQ(kept.size(), std::min<size_t>(all.size(), kRandomProgramRewrites)) << i;
    // A subsequence of all, each kept variant the very case metamorphic_variants made.
    size_t at = 0;
    for (const MetamorphicVariant& v : kept) {
      while (at < all.size() && all[at].rewrite != v.rewrite) ++at;
      ASSERT_LT(at, all.size()) << i << " " << v.rewrite;
      EXPECT_EQ(print_case(v.test_case), print_case(all[at].test_case));
      seen.insert(v.rewrite);
    }
    auto cases = random_program_suite_cases(seed, random_program_id(i), 1);
    ASSERT_TRUE(cases) << i;
    EXPECT_EQ(cases->size(), kept.size() + 1) << i;
  }
  for (const char* rewrite : {"dead_code", "identity", "outline", "inline", "peel", "reorder"}) {
    EXPECT_EQ(seen.count(rewrite), 1u) << rewrite << " never kept in 40 programs";
  }
}

// The programs are built on every host core; the cases must still be those
// of programs 0, 1, 2, ... one after another.
TEST(RandomProgramCases, CasesComeInProgramOrderHoweverManyCoresBuildThem) {
  RandomProgramTally tally;
  const auto together = random_program_cases(7, 12, tally);
  std::vector<SuiteCase> one_by_one;
  for (uint32_t i = 0; i < 12; ++i) {
    auto cases = random_program_suite_cases(random_program_seed(7, i), random_program_id(i), 7);
    ASSERT_TRUE(cases) << i;
    for (SuiteCase& c : *cases) one_by_one.push_back(std::move(c));
  }
  ASSERT_EQ(together.size(), one_by_one.size());
  for (size_t i = 0; i < together.size(); ++i) {
    EXPECT_EQ(together[i].id, one_by_one[i].id);
    EXPECT_EQ(print_case(dispatch_of(together[i])->test_case),
              print_case(dispatch_of(one_by_one[i])->test_case));
  }
}

TEST(RandomProgramCases, DefaultSizeReachesTheWholeUniverse) {
  RandomProgramTally tally;
  const auto cases = random_program_cases(1, kRandomProgramCount, tally);
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) chosen.push_back(&c);
  const auto summary = summarize_random_programs(chosen, tally);
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->programs, kRandomProgramCount);
  EXPECT_EQ(summary->discarded, 0u);
  std::string missing;
  for (const std::string& m : summary->not_reached) missing += m + "\n";
  EXPECT_TRUE(missing.empty()) << "not reached by the default L5:\n" << missing;
  uint32_t universe = 0;
  for (const CoverageCategory& c : summary->categories) {
    universe += c.universe;
    EXPECT_EQ(c.reached, c.universe) << c.category;
  }
  EXPECT_GT(universe, 100u);
}

}  // namespace
}  // namespace vyre::certify
