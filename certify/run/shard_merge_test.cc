// `merge`: shards of one run join into the unsharded report; anything that
// is not the shards of one run is refused, naming the mismatch.
#include <gtest/gtest.h>

#include "certify/report/selection_digest.h"
#include "certify/run/shard_merge.h"

namespace vyre::certify {
namespace {

// The catalogue up to L1, the shards' level.
const std::vector<std::string> kCatalog = {"L1/x", "L1/y", "L1/z"};

SealedReport shard(uint32_t index, uint32_t count, std::vector<std::string> ids,
                   Verdict verdict = Verdict::Pass) {
  SealedReport s;
  s.path = "s" + std::to_string(index) + "/report.json";
  s.digest = "digest" + std::to_string(index);
  Report& r = s.report;
  r.backend = "reference";
  r.suite_version = "0.1.0";
  r.device.device_name = "ref";
  r.seed = 1;
  r.runs = 2;
  r.requested_level = Level::L1;
  r.started_utc = "2026-11-25T10:0" + std::to_string(index) + ":00Z";
  r.wall_us = 100 * index;
  r.phase_us = {{"compile", 10}, {"other", 100 * index - 10}};
  for (const std::string& id : ids) {
    CaseResult c;
    c.id = id;
    c.verdict = verdict;
    r.cases.push_back(c);
  }
  r.shard = ShardInfo{index, count, 3, selection_digest({"L1/x", "L1/y", "L1/z"})};
  judge(r);
  return s;
}

std::string refusal(const std::vector<SealedReport>& shards) {
  auto merged = merge_shard_reports(shards, kCatalog);
  return merged.ok() ? "merged" : merged.error().message;
}

TEST(ShardMerge, JoinsShardsInCatalogOrder) {
  // Given out of order, each shard's cases not in catalog order among themselves.
  auto merged =
      merge_shard_reports({shard(2, 2, {"L1/y"}), shard(1, 2, {"L1/z", "L1/x"})}, kCatalog);
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  ASSERT_EQ(merged->cases.size(), 3u);
  EXPECT_EQ(merged->cases[0].id, "L1/x");
  EXPECT_EQ(merged->cases[1].id, "L1/y");
  EXPECT_EQ(merged->cases[2].id, "L1/z");
  EXPECT_EQ(merged->wall_us, 300u);
  EXPECT_EQ(merged->phase_us.at("compile"), 20u);
  EXPECT_EQ(merged->phase_us.at("other"), 280u);
  EXPECT_EQ(merged->started_utc, "2026-11-25T10:01:00Z");
  EXPECT_FALSE(merged->shard.has_value());
  EXPECT_EQ(merged->shards, (std::vector<std::string>{"digest1", "digest2"}));
  EXPECT_TRUE(merged->certified);
  ASSERT_EQ(merged->levels.size(), 1u);
  EXPECT_EQ(merged->levels[0].cases, 3u);
}

TEST(ShardMerge, JudgesTheLevelsAgain) {
  auto merged = merge_shard_reports(
      {shard(1, 2, {"L1/x", "L1/z"}), shard(2, 2, {"L1/y"}, Verdict::Fail)}, kCatalog);
  ASSERT_TRUE(merged.ok());
  EXPECT_FALSE(merged->certified);
  EXPECT_EQ(merged->reason, "L1: 1 case(s) failed");
}

TEST(ShardMerge, RefusesWhatIsNotTheShardsOfOneRun) {
  SealedReport whole = shard(1, 1, {"L1/x", "L1/y", "L1/z"});
  whole.report.shard.reset();
  EXPECT_NE(refusal({whole}).find("s1/report.json: not a shard report"), std::string::npos);

  EXPECT_NE(
      refusal({shard(1, 2, {"L1/x", "L1/z"}), shard(2, 3, {"L1/y"})})
          .find("disagree on shard count N: s1/report.json says `2`, s2/report.json says `3`"),
      std::string::npos);
  EXPECT_NE(refusal({shard(1, 3, {"L1/x", "L1/z"}), shard(3, 3, {"L1/y"})})
                .find("shard 2 of 3 is missing"),
            std::string::npos);
  EXPECT_NE(refusal({shard(1, 2, {"L1/x", "L1/z"}), shard(1, 2, {"L1/y"})})
                .find("shard 1 is given twice"),
            std::string::npos);
  EXPECT_NE(refusal({shard(1, 2, {"L1/x", "L1/y"}), shard(2, 2, {"L1/y", "L1/z"})})
                .find("the case `L1/y` is in two shards"),
            std::string::npos);
  EXPECT_NE(
      refusal({shard(1, 2, {"L1/x"}), shard(2, 2, {"L1/y"})}).find("not the selection of 3 cases"),
      std::string::npos);

  const std::pair<const char*, void (*)(Report&)> differing[] = {
      {"seed", [](Report& r) { r.seed = 2; }},
      {"runs", [](Report& r) { r.runs = 3; }},
      {"level", [](Report& r) { r.requested_level = Level::L2; }},
      {"backend", [](Report& r) { r.backend = "vulkan"; }},
      {"device", [](Report& r) { r.device.device_name = "other"; }},
      {"suite_version", [](Report& r) { r.suite_version = "0.2.0"; }},
      {"selection_digest", [](Report& r) { r.shard->selection_digest = "00"; }},
  };
  for (const auto& [what, change] : differing) {
    SealedReport second = shard(2, 2, {"L1/y"});
    change(second.report);
    EXPECT_NE(
        refusal({shard(1, 2, {"L1/x", "L1/z"}), second}).find("disagree on " + std::string(what)),
        std::string::npos)
        << what;
  }
}

TEST(ShardMerge, RefusesShardsNamingASelectionOfTheirOwn) {
  // Forged shards that left L1/z out and agree on a selection without it.
  std::vector<SealedReport> shards = {shard(1, 2, {"L1/x"}), shard(2, 2, {"L1/y"})};
  for (SealedReport& s : shards) s.report.shard->selected = 2;
  for (SealedReport& s : shards)
    s.report.shard->selection_digest = selection_digest({"L1/x", "L1/y"});
  EXPECT_NE(refusal(shards).find("but this build's catalogue for seed 1 up to L1 selects 3"),
            std::string::npos)
      << refusal(shards);
}

TEST(ShardMerge, RefusesACaseOutsideTheCatalog) {
  SealedReport s = shard(1, 1, {"L1/x", "L1/y", "L1/q"});
  EXPECT_NE(refusal({s}).find("the case `L1/q` is not in this build's catalog"), std::string::npos);
}

}  // namespace
}  // namespace vyre::certify
