// The gate's comparison with known failures and `diff` between two reports,
// on hand-built reports whose expected lists are written out by hand.
#include <gtest/gtest.h>

#include "certify/report/baseline_comparison.h"
#include "certify/report/report_diff.h"

namespace vyre::certify {
namespace {

CaseResult case_of(std::string id, Verdict verdict, uint64_t compile_us = 0,
                   uint64_t backend_us = 0) {
  CaseResult c;
  c.id = std::move(id);
  c.verdict = verdict;
  c.compile_us = compile_us;
  c.backend_us = backend_us;
  return c;
}

using Ids = std::vector<std::string>;

TEST(BaselineComparison, SortsCasesIntoNewFixedAndStillFailing) {
  const std::vector<CaseResult> run = {case_of("a", Verdict::Pass), case_of("b", Verdict::Fail),
                                       case_of("c", Verdict::Timeout), case_of("d", Verdict::Pass),
                                       case_of("e", Verdict::NotSupported)};
  // "z" is known but was not run (another shard): it is in no list.
  const std::vector<KnownFailure> known = {{"b", "", ""}, {"d", "", ""}, {"z", "", ""}};
  const BaselineComparison got = compare_with_known_failures(run, known, "old.json");
  EXPECT_EQ(got.source, "old.json");
  EXPECT_EQ(got.new_failures, (Ids{"c", "e"}));
  EXPECT_EQ(got.fixed, (Ids{"d"}));
  EXPECT_EQ(got.still_failing, (Ids{"b"}));
}

TEST(BaselineComparison, KnownFailuresOfABaselineAreItsFailingCases) {
  Report old;
  old.cases = {case_of("a", Verdict::Pass), case_of("b", Verdict::DeviceLost),
               case_of("c", Verdict::Fail)};
  const auto known = known_failures_of(old, "old.json");
  ASSERT_EQ(known.size(), 2u);
  EXPECT_EQ(known[0].case_id, "b");
  EXPECT_EQ(known[0].reason, "device lost in the baseline old.json");
  EXPECT_EQ(known[1].case_id, "c");
}

TEST(BaselineComparison, RefusesAnotherBackendOrSuiteVersion) {
  Report old;
  old.backend = "vulkan";
  old.suite_version = "0.1.0";
  EXPECT_FALSE(baseline_mismatch(old, "vulkan", "0.1.0").has_value());
  auto backend = baseline_mismatch(old, "opencl", "0.1.0");
  ASSERT_TRUE(backend.has_value());
  EXPECT_NE(backend->find("backend `vulkan`"), std::string::npos) << *backend;
  auto version = baseline_mismatch(old, "vulkan", "0.2.0");
  ASSERT_TRUE(version.has_value());
  EXPECT_NE(version->find("suite version 0.1.0"), std::string::npos) << *version;
}

TEST(BaselineComparison, TheGatePassesOnKnownFailuresOnly) {
  Report r;
  r.cases = {case_of("a", Verdict::Fail)};
  r.certified = false;
  EXPECT_FALSE(gate_passes(r));  // no baseline: the verdict decides
  r.baseline = BaselineComparison{"old.json", {}, {}, {"a"}, {}};
  EXPECT_TRUE(gate_passes(r));
  r.baseline->new_failures = {"a"};
  EXPECT_FALSE(gate_passes(r));
  Report shard;
  shard.shard = ShardInfo{1, 2, 4, "x"};
  shard.cases = {case_of("a", Verdict::Pass)};
  shard.certified = false;  // e.g. a level none of this shard's cases is at
  EXPECT_TRUE(gate_passes(shard));
  shard.cases.push_back(case_of("b", Verdict::NotSupported));
  EXPECT_FALSE(gate_passes(shard));
}

TEST(ReportDiff, ListsStatusChangesSlowdownsAndRegressions) {
  Report a;
  a.cases = {case_of("same", Verdict::Pass, 100, 400),     // 0.5 ms
             case_of("fixed", Verdict::Fail, 0, 10),       //
             case_of("broke", Verdict::Pass, 0, 600),      //
             case_of("gone", Verdict::Pass),               //
             case_of("tiny", Verdict::Pass, 0, 100),       // 0.1 ms -> 0.9 ms: under the floor
             case_of("just2x", Verdict::Pass, 500, 500)};  // 1 ms -> 2 ms
  Report b;
  b.cases = {case_of("same", Verdict::Pass, 100, 1400),     // 1.5 ms: 3x
             case_of("fixed", Verdict::Pass, 0, 10),        //
             case_of("broke", Verdict::Fail, 0, 600),       //
             case_of("new", Verdict::Timeout),              //
             case_of("tiny", Verdict::Pass, 0, 900),        //
             case_of("just2x", Verdict::Pass, 1000, 999)};  // 1.999 ms: under 2x
  const ReportDiff d = diff_reports(a, b);
  ASSERT_EQ(d.changes.size(), 4u);
  EXPECT_EQ(d.changes[0].id, "fixed");
  EXPECT_EQ(d.changes[0].before, Verdict::Fail);
  EXPECT_EQ(d.changes[0].after, Verdict::Pass);
  EXPECT_EQ(d.changes[1].id, "broke");
  EXPECT_EQ(d.changes[2].id, "new");
  EXPECT_FALSE(d.changes[2].before.has_value());
  EXPECT_EQ(d.changes[3].id, "gone");
  EXPECT_FALSE(d.changes[3].after.has_value());
  ASSERT_EQ(d.slowdowns.size(), 1u);
  EXPECT_EQ(d.slowdowns[0].id, "same");
  EXPECT_EQ(d.slowdowns[0].before_us, 500u);
  EXPECT_EQ(d.slowdowns[0].after_us, 1500u);
  EXPECT_EQ(d.regressions, (Ids{"broke", "new"}));
  const std::string text = diff_text(d);
  EXPECT_NE(text.find("  broke: pass -> fail\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  gone: pass -> (absent)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  same: 0.5 ms -> 1.5 ms (3.0x)\n"), std::string::npos) << text;
}

TEST(ReportDiff, TimesNearTwoToThe64DoNotWrap) {
  // Before: compile + backend wrapped to 0 + 1, and 2 x before wrapped too.
  Report a;
  a.cases = {case_of("huge", Verdict::Pass, UINT64_MAX, 2),
             case_of("half", Verdict::Pass, 0, UINT64_MAX / 2 + 1)};
  Report b;
  b.cases = {case_of("huge", Verdict::Pass, 0, 5000), case_of("half", Verdict::Pass, 0, 2000)};
  EXPECT_TRUE(diff_reports(a, b).slowdowns.empty());
  // Saturated at 2^64 - 1 in B: still at least 2x a small A.
  const ReportDiff d = diff_reports(b, a);
  ASSERT_EQ(d.slowdowns.size(), 2u);
  EXPECT_EQ(d.slowdowns[0].after_us, UINT64_MAX);
}

TEST(ReportDiff, WarnsAboutDifferentSuiteVersions) {
  Report a;
  a.suite_version = "0.4.0-1";
  a.cases = {case_of("x", Verdict::Pass)};
  Report b = a;
  EXPECT_FALSE(diff_reports(a, b).suite_versions.has_value());
  EXPECT_EQ(diff_text(diff_reports(a, b)).find("warning"), std::string::npos);
  b.suite_version = "0.4.0-2";
  const ReportDiff d = diff_reports(a, b);
  ASSERT_TRUE(d.suite_versions.has_value());
  EXPECT_EQ(d.suite_versions->first, "0.4.0-1");
  EXPECT_EQ(d.suite_versions->second, "0.4.0-2");
  EXPECT_EQ(diff_text(d).find("warning: the reports are of different suite versions (A: "
                              "0.4.0-1, B: 0.4.0-2)"),
            0u)
      << diff_text(d);
}

TEST(ReportDiff, SameReportHasNoChange) {
  Report a;
  a.cases = {case_of("x", Verdict::Fail, 5000, 5000)};
  const ReportDiff d = diff_reports(a, a);
  EXPECT_TRUE(d.changes.empty());
  EXPECT_TRUE(d.slowdowns.empty());
  EXPECT_TRUE(d.regressions.empty());  // failing before too: not new
}

}  // namespace
}  // namespace vyre::certify
