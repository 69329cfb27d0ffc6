// Seed policies: the date policy's seed is the UTC date as YYYYMMDD, the same
// all day and new the next day; the fixed policy's is its value.
#include "certify/gate/seed_policy.h"

#include <gtest/gtest.h>

namespace vyre::certify {
namespace {

// 2026-11-25T00:00:00Z, from `date -u -d 2026-11-25 +%s`.
constexpr std::time_t kNov25 = 1795564800;

TEST(SeedPolicy, DateSeedIsTheUtcDate) {
  EXPECT_EQ(seed_of_utc_date(kNov25), 20261125u);
  EXPECT_EQ(seed_of_utc_date(kNov25 + 86399), 20261125u);  // 23:59:59 the same day
  EXPECT_EQ(seed_of_utc_date(kNov25 + 86400), 20261126u);  // the next night
  EXPECT_EQ(seed_of_utc_date(kNov25 - 1), 20261124u);
  EXPECT_EQ(seed_of_utc_date(0), 19700101u);
}

TEST(SeedPolicy, SeedForFollowsThePolicy) {
  EXPECT_EQ(seed_for({SeedPolicyKind::Date, 99}, kNov25), 20261125u);
  EXPECT_EQ(seed_for({SeedPolicyKind::Fixed, 99}, kNov25), 99u);
  EXPECT_EQ(seed_for({SeedPolicyKind::Fixed, 99}, kNov25 + 86400), 99u);
}

TEST(SeedPolicy, NamesRoundTrip) {
  EXPECT_EQ(name_of(SeedPolicyKind::Fixed), "fixed");
  EXPECT_EQ(name_of(SeedPolicyKind::Date), "date");
  EXPECT_EQ(seed_policy_named("date"), SeedPolicyKind::Date);
  EXPECT_EQ(seed_policy_named("fixed"), SeedPolicyKind::Fixed);
  EXPECT_EQ(seed_policy_named("Date"), std::nullopt);
  EXPECT_EQ(seed_policy_named(""), std::nullopt);
}

}  // namespace
}  // namespace vyre::certify
