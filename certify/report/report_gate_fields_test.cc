// The gate-file members of report.json (seed_policy, time_budget_s, a case's
// retried): optional, written only when set, verified when present and
// rejected when mistyped; report.md lists retried cases.
#include <gtest/gtest.h>

#include "certify/report/baseline_comparison.h"
#include "certify/report/report_json.h"
#include "certify/report/report_verify.h"
#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

/// One passing L1 case, judged; `gate` adds the gate-file members.
Report report_with(bool gate) {
  Report r;
  r.suite_version = "test";
  r.backend = "vulkan";
  r.device.api = "Vulkan 1.3";
  r.seed = 20261125;
  r.runs = 2;
  r.requested_level = Level::L1;
  CaseResult c;
  c.id = "L1/primitive.add";
  c.level = Level::L1;
  c.verdict = Verdict::Pass;
  if (gate) c.retried = "device lost";
  r.cases.push_back(c);
  if (gate) {
    r.seed_policy = "date";
    r.time_budget_s = 3600;
  }
  judge(r);
  return r;
}

TEST(ReportGateFields, AbsentUnlessSet) {
  const nlohmann::json j = report_to_json(report_with(false));
  EXPECT_FALSE(j.contains("seed_policy"));
  EXPECT_FALSE(j.contains("time_budget_s"));
  EXPECT_FALSE(j["cases"][0].contains("retried"));
}

TEST(ReportGateFields, WrittenAndVerified) {
  const nlohmann::json j = with_certificate(report_to_json(report_with(true)));
  EXPECT_EQ(j["seed_policy"], "date");
  EXPECT_EQ(j["time_budget_s"], 3600);
  EXPECT_EQ(j["cases"][0]["retried"], "device lost");
  auto verified = verify_report(nlohmann::json::parse(j.dump()));
  EXPECT_TRUE(verified.ok()) << verified.error().message;
}

TEST(ReportGateFields, MistypedAreRejected) {
  const nlohmann::json good = report_to_json(report_with(true));
  const std::pair<nlohmann::json::json_pointer, nlohmann::json> mistyped[] = {
      {nlohmann::json::json_pointer("/seed_policy"), 1},
      {nlohmann::json::json_pointer("/time_budget_s"), "an hour"},
      {nlohmann::json::json_pointer("/cases/0/retried"), true},
  };
  for (const auto& [at, value] : mistyped) {
    nlohmann::json bad = good;
    bad[at] = value;
    auto result = verify_report(with_certificate(bad));
    ASSERT_FALSE(result.ok()) << at.to_string();
    EXPECT_NE(result.error().message.find(at.to_string()), std::string::npos)
        << result.error().message;
  }
}

TEST(ReportGateFields, MarkdownListsRetriedCasesAndThePolicy) {
  const std::string md = report_markdown(report_with(true));
  EXPECT_NE(md.find("## Retried cases"), std::string::npos);
  EXPECT_NE(md.find("| L1/primitive.add | device lost | pass |"), std::string::npos) << md;
  EXPECT_NE(md.find("| seed policy | date |"), std::string::npos);
  EXPECT_NE(md.find("| time budget | 3600 s |"), std::string::npos);
  EXPECT_EQ(report_markdown(report_with(false)).find("Retried"), std::string::npos);
}

TEST(ReportGateFields, KnownFailureReasonsAreRecordedEverywhere) {
  // A gate file requires each known failure's reason; no report kept it.
  Report r = report_with(false);
  CaseResult failing = r.cases[0];
  failing.id = "L1/primitive.sub";
  failing.verdict = Verdict::Fail;
  r.cases.push_back(failing);
  judge(r);
  const std::vector<KnownFailure> known = {
      {"L1/primitive.sub", "driver rounds wrongly", "https://tracker.example/7"},
      {"L1/primitive.add", "flaky on old drivers", ""}};
  r.baseline = compare_with_known_failures(r.cases, known, "gate.toml");
  ASSERT_EQ(r.baseline->known.size(), 2u);
  EXPECT_EQ(r.baseline->known[0].case_id, "L1/primitive.add");  // case order
  EXPECT_EQ(r.baseline->known[1].reason, "driver rounds wrongly");

  const nlohmann::json j = with_certificate(report_to_json(r));
  const nlohmann::json& recorded = j["baseline"]["known"];
  ASSERT_EQ(recorded.size(), 2u);
  EXPECT_EQ(recorded[0],
            (nlohmann::json{{"case", "L1/primitive.add"}, {"reason", "flaky on old drivers"}}));
  EXPECT_EQ(recorded[1]["link"], "https://tracker.example/7");
  auto verified = verify_report(nlohmann::json::parse(j.dump()));
  EXPECT_TRUE(verified.ok()) << verified.error().message;
  // A reason for a case that is neither fixed nor still failing is refused.
  nlohmann::json stray = report_to_json(r);
  stray["baseline"]["known"][0]["case"] = "L1/primitive.mul";
  EXPECT_FALSE(verify_report(with_certificate(stray)).ok());

  const std::string md = report_markdown(r);
  EXPECT_NE(md.find("| L1/primitive.sub | driver rounds wrongly | https://tracker.example/7 |"),
            std::string::npos)
      << md;
  const std::string html = report_html(r, "00");
  EXPECT_NE(html.find("<h2>Known failures</h2>"), std::string::npos);
  EXPECT_NE(html.find("driver rounds wrongly"), std::string::npos);
  EXPECT_NE(html.find("flaky on old drivers"), std::string::npos);
}

}  // namespace
}  // namespace vyre::certify
