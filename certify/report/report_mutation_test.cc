// The "mutation_score" member: written from the committed record, accepted by
// `verify`, refused when mistyped or extended; and the record's own arithmetic.
#include <gtest/gtest.h>

#include <set>

#include "certify/report/mutation_record.h"
#include "certify/report/report_json.h"
#include "certify/report/report_mutation.h"
#include "certify/report/report_verify.h"
#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

/// A judged one-case report, sealed and re-read as `verify` reads it.
nlohmann::json sealed_report() {
  Report r;
  r.suite_version = "test";
  r.backend = "vulkan";
  r.device.api = "Vulkan 1.3";
  r.requested_level = Level::L1;
  CaseResult c;
  c.id = "L1/primitive.add";
  c.level = Level::L1;
  c.verdict = Verdict::Pass;
  c.variants = 1;
  c.distinct_outputs = 1;
  r.cases.push_back(c);
  judge(r);
  auto parsed = parse_report_text(with_certificate(report_to_json(r)).dump(2));
  EXPECT_TRUE(parsed.ok());
  return parsed->json;
}

/// `report` with its certificate recomputed, so that only the schema can object.
nlohmann::json resealed(nlohmann::json report) {
  return with_certificate(std::move(report));
}

TEST(MutationScore, ReportCarriesTheRecordAndVerifies) {
  const nlohmann::json j = sealed_report();
  ASSERT_TRUE(j.contains("mutation_score"));
  const nlohmann::json& m = j["mutation_score"];
  EXPECT_EQ(m["catalogue"], kMutantCatalogue);
  EXPECT_EQ(m["catalogue_version"], kMutantCatalogueVersion);
  EXPECT_EQ(m["mutants"], kMutantsTotal);
  EXPECT_EQ(m["killed"], kMutantsKilled);
  EXPECT_EQ(m["surviving"].size(), surviving_mutants().size());
  auto verified = verify_report(j);
  EXPECT_TRUE(verified.ok()) << verified.error().message;
}

TEST(MutationScore, ReportsWithoutItStillVerify) {
  nlohmann::json j = sealed_report();
  j.erase("mutation_score");
  auto verified = verify_report(resealed(j));
  EXPECT_TRUE(verified.ok()) << verified.error().message;
}

TEST(MutationScore, VerifyRefusesAMistypedOrExtendedScore) {
  nlohmann::json mistyped = sealed_report();
  mistyped["mutation_score"]["killed"] = "all of them";
  EXPECT_FALSE(verify_report(resealed(mistyped)).ok());
  nlohmann::json extended = sealed_report();
  extended["mutation_score"]["bonus"] = 1;
  EXPECT_FALSE(verify_report(resealed(extended)).ok());
  nlohmann::json missing = sealed_report();
  missing["mutation_score"].erase("summary");
  EXPECT_FALSE(verify_report(resealed(missing)).ok());
  nlohmann::json bad_row = sealed_report();
  bad_row["mutation_score"]["surviving"] = nlohmann::json::array({{{"name", 3}}});
  EXPECT_FALSE(verify_report(resealed(bad_row)).ok());
}

TEST(MutationScore, MarkdownShowsTheScoreLine) {
  Report r;
  r.backend = "vulkan";
  judge(r);
  const std::string md = report_markdown(r);
  EXPECT_NE(md.find("| suite strength | mutation score: " + std::to_string(kMutantsKilled) + "/" +
                    std::to_string(kMutantsTotal)),
            std::string::npos)
      << md;
}

TEST(MutationScore, EachBackendsReportCarriesItsOwnRecord) {
  // Each record measured one backend's seeded bugs: an OpenCL report once
  // carried the Vulkan score as if it were its own.
  const std::pair<std::string, std::string> measured[] = {{"vulkan", "Vulkan 1.3"},
                                                          {"opencl", "OpenCL 3.0"}};
  for (const auto& [backend, api] : measured) {
    const MutationRecord* record = mutation_record_of(backend);
    ASSERT_NE(record, nullptr) << backend;
    Report r;
    r.backend = backend;
    r.device.api = api;
    judge(r);
    const nlohmann::json j = with_certificate(report_to_json(r));
    ASSERT_TRUE(j.contains("mutation_score")) << backend;
    EXPECT_EQ(j["mutation_score"]["catalogue"], record->catalogue);
    EXPECT_EQ(j["mutation_score"]["killed"], record->killed);
    EXPECT_EQ(j["mutation_score"]["surviving"].size(), record->surviving.size());
    auto verified = verify_report(j);
    EXPECT_TRUE(verified.ok()) << verified.error().message;
    const std::string html = report_html(r, "00");
    EXPECT_NE(html.find("surviving mutant"), std::string::npos) << backend;
    EXPECT_NE(html.find(std::string(record->surviving.front().name)), std::string::npos);
  }
  // The two catalogues are told apart (a copy of one record under the other
  // name would pass the loop above).
  EXPECT_NE(mutation_record_of("vulkan")->catalogue, mutation_record_of("opencl")->catalogue);
}

TEST(MutationScore, AnotherBackendsReportCarriesNoScore) {
  const std::pair<std::string, std::string> backends[] = {
      {"cuda", "CUDA 13.0"}, {"reference", "vyre 0.4.0"}, {"./libmybackend.so", "mine"}};
  for (const auto& [backend, api] : backends) {
    Report r;
    r.backend = backend;
    r.device.api = api;  // verify checks that a built-in backend's device speaks its API
    judge(r);
    const nlohmann::json j = with_certificate(report_to_json(r));
    EXPECT_FALSE(j.contains("mutation_score")) << backend;
    auto verified = verify_report(j);
    EXPECT_TRUE(verified.ok()) << verified.error().message;
    const std::string not_measured = "mutation score: not measured for this backend";
    const std::string md = report_markdown(r);
    EXPECT_NE(md.find("| suite strength | " + not_measured), std::string::npos) << md;
    const std::string html = report_html(r, "00");
    EXPECT_NE(html.find(not_measured), std::string::npos) << backend;
    EXPECT_EQ(html.find("surviving mutant"), std::string::npos) << backend;
  }
}

TEST(MutationRecord, KilledAndSurvivingAddUpToTheCatalogue) {
  ASSERT_EQ(mutation_records().size(), 2u);
  for (const MutationRecord& r : mutation_records()) {
    EXPECT_GT(r.mutants, 0u) << r.backend;
    EXPECT_EQ(r.killed + r.surviving.size(), r.mutants) << r.backend;
    std::set<std::string_view> names;
    for (const SurvivingMutant& m : r.surviving) {
      EXPECT_TRUE(names.insert(m.name).second) << m.name << " is listed twice";
      EXPECT_FALSE(m.reason.empty()) << m.name << " survives without a reason";
    }
  }
}

}  // namespace
}  // namespace vyre::certify
