#include <gtest/gtest.h>

#include "certify/run/certification_run.h"
#include "certify/run/output_judge.h"

namespace vyre::certify {
namespace {

CaseResult result(Level level, Verdict verdict) {
  CaseResult c;
  c.id = "case";
  c.level = level;
  c.verdict = verdict;
  return c;
}

TEST(Judge, CertifiesWhenEveryLevelUpToTheRequestedOnePassed) {
  Report r;
  r.requested_level = Level::L2;
  r.cases = {result(Level::L1, Verdict::Pass), result(Level::L2, Verdict::Pass)};
  judge(r);
  EXPECT_TRUE(r.certified) << r.reason;
  ASSERT_EQ(r.levels.size(), 2u);
  EXPECT_TRUE(r.levels[0].certified);
  EXPECT_TRUE(r.levels[1].certified);
}

TEST(Judge, ZeroCasesIsNotCertified) {
  Report r;
  r.requested_level = Level::L1;
  judge(r);
  EXPECT_FALSE(r.certified);
  EXPECT_EQ(r.levels[0].reason, "no case ran at this level");
}

TEST(Judge, AnEmptyLowerLevelFailsAHigherRequest) {
  Report r;
  r.requested_level = Level::L2;
  r.cases = {result(Level::L2, Verdict::Pass)};
  judge(r);
  EXPECT_FALSE(r.certified);
  EXPECT_NE(r.reason.find("L1"), std::string::npos);
}

TEST(Judge, NotSupportedIsNeverAPass) {
  Report r;
  r.requested_level = Level::L1;
  r.cases = {result(Level::L1, Verdict::Pass), result(Level::L1, Verdict::NotSupported)};
  judge(r);
  EXPECT_FALSE(r.certified);
  EXPECT_EQ(r.levels[0].not_supported, 1u);
  EXPECT_NE(r.levels[0].reason.find("not supported"), std::string::npos);
}

TEST(Judge, EveryNonPassVerdictFailsTheLevel) {
  for (Verdict v : {Verdict::Fail, Verdict::CompileError, Verdict::DeviceLost, Verdict::Timeout,
                    Verdict::BadOutput, Verdict::Error, Verdict::InvalidCase, Verdict::Crashed}) {
    Report r;
    r.requested_level = Level::L1;
    r.cases = {result(Level::L1, Verdict::Pass), result(Level::L1, v)};
    judge(r);
    EXPECT_FALSE(r.certified) << name_of(v);
    EXPECT_EQ(r.levels[0].failed, 1u) << name_of(v);
  }
}

TEST(Judge, LevelsAboveTheRequestedOneAreNotJudged) {
  Report r;
  r.requested_level = Level::L1;
  r.cases = {result(Level::L1, Verdict::Pass)};
  judge(r);
  EXPECT_TRUE(r.certified);
  EXPECT_EQ(r.levels.size(), 1u);
}

TEST(FirstDifference, FindsTheFirstDifferingWord) {
  BufferSet want = {{"out", {1, 0, 0, 0, 2, 0, 0, 0}}};
  BufferSet got = {{"out", {1, 0, 0, 0, 3, 0, 0, 0}}};
  auto d = first_difference(want, got);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->buffer, "out");
  EXPECT_EQ(d->word, 1u);
  EXPECT_EQ(d->expected, 2u);
  EXPECT_EQ(d->observed, 3u);
  EXPECT_FALSE(first_difference(want, want));
}

TEST(FirstDifference, ReportsShortAndMissingBuffers) {
  BufferSet want = {{"out", {1, 0, 0, 0, 2, 0, 0, 0}}};
  BufferSet shorter = {{"out", {1, 0, 0, 0}}};
  auto d = first_difference(want, shorter);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->word, 1u);
  auto missing = first_difference(want, {});
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->buffer.find("missing"), std::string::npos);
  auto extra = first_difference({}, want);
  ASSERT_TRUE(extra);
  EXPECT_NE(extra->buffer.find("unexpected"), std::string::npos);
}

}  // namespace
}  // namespace vyre::certify
