#include "certify/report/report_json.h"
#include "certify/report/report_verify.h"
#include "certify/report/verify_rejection_for_tests.h"

#include <gtest/gtest.h>

namespace vyre::certify {
namespace {

/// A consistent report of one passing L1 case, judged and certified at L1.
Report sample_report() {
  Report r;
  r.suite_version = "test";
  r.backend = "vulkan";
  r.device.device_name = "llvmpipe";
  r.device.api = "Vulkan 1.3";
  r.seed = 7;
  r.runs = 100;
  r.requested_level = Level::L1;
  CaseResult c;
  c.id = "L1/primitive.add";
  c.level = Level::L1;
  c.verdict = Verdict::Pass;
  c.variants = 6;
  c.distinct_outputs = 1;
  r.cases.push_back(c);
  judge(r);
  return r;
}

/// The sample report, sealed, written out and read back as `verify` reads it.
nlohmann::json sealed_sample() {
  nlohmann::json sealed = with_certificate(report_to_json(sample_report()));
  auto parsed = parse_report_text(sealed.dump(2));
  EXPECT_TRUE(parsed.ok());
  return parsed->json;
}

TEST(Sha256, MatchesFips180Vectors) {
  // FIPS 180-2 appendix B test vectors, not our own output.
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(CanonicalJson, SortsKeysAndDropsWhitespace) {
  nlohmann::json j = nlohmann::json::parse(R"({ "b": 1, "a": [1, 2], "c": {"z": 1, "y": 2} })");
  EXPECT_EQ(canonical_json(j), R"({"a":[1,2],"b":1,"c":{"y":2,"z":1}})");
}

TEST(Certificate, VerifiesAnUntouchedReport) {
  nlohmann::json j = with_certificate(report_to_json(sample_report()));
  // Pretty printing and re-parsing (what a file round trip does) keeps it valid.
  nlohmann::json reread = nlohmann::json::parse(j.dump(2));
  auto result = verify_certificate(reread);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(*result, reread["certificate"]["digest"].get<std::string>());
  auto full = verify_report(reread);
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_EQ(*full, *result);
}

TEST(Certificate, RejectsAHandEditedVerdict) {
  nlohmann::json j = sealed_sample();
  ASSERT_EQ(j["cases"][0]["status"], "pass");
  j["cases"][0]["status"] = "fail";
  auto result = verify_certificate(j);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("digest mismatch"), std::string::npos);
  expect_rejected(j, "digest mismatch");
}

TEST(VerifyReport, RejectsAForgedMinimalReport) {
  // Hand-made, with a correct digest: the digest alone would accept it.
  nlohmann::json forged = with_certificate(nlohmann::json::parse(
      R"({"schema_version":1,"backend":"vulkan","certified":true,"cases":[],"levels":[]})"));
  ASSERT_TRUE(verify_certificate(forged).ok());
  expect_rejected(forged, "/spec_snapshot: missing");
}

TEST(VerifyReport, RejectsACompleteReportThatRanNothingYetSaysCertified) {
  nlohmann::json body = report_to_json(sample_report());
  body["cases"] = nlohmann::json::array();
  body["levels"] = nlohmann::json::array();
  expect_rejected(with_certificate(body), "/levels/0: the report says nothing, but judging");
}

TEST(VerifyReport, RejectsAFlippedVerdictWithARecomputedDigest) {
  // A case's status flipped, levels and verdict left as they were.
  nlohmann::json failing = sealed_sample();
  failing["cases"][0]["status"] = "fail";
  failing.erase("certificate");
  expect_rejected(with_certificate(failing),
                  "/levels/0/certified: the report says true, but judging its per-case statuses "
                  "gives false");
  // The verdict flipped, the cases left as they were.
  nlohmann::json uncertified = sealed_sample();
  uncertified["certified"] = false;
  uncertified.erase("certificate");
  expect_rejected(with_certificate(uncertified), "/certified: the report says false");
  // A level's count edited.
  nlohmann::json counts = sealed_sample();
  counts["levels"][0]["passed"] = 2;
  counts.erase("certificate");
  expect_rejected(with_certificate(counts), "/levels/0/passed");
}

TEST(VerifyReport, RejectsACaseAboveTheRequestedLevel) {
  // judge() counts only levels up to the requested one, so moving a failing
  // case up would hide it.
  Report r = sample_report();
  r.cases[0].level = Level::L2;
  r.cases[0].verdict = Verdict::Fail;
  CaseResult passing = sample_report().cases[0];
  passing.id = "L1/other";
  r.cases.push_back(passing);
  judge(r);
  ASSERT_TRUE(r.certified);
  expect_rejected(with_certificate(report_to_json(r)),
                  "/cases/0/level: L2 is above the requested level L1");
}

TEST(VerifyReport, RejectsMembersOutsideTheSchema) {
  nlohmann::json extra = sealed_sample();
  extra["cases"][0]["waived"] = true;
  extra.erase("certificate");
  expect_rejected(with_certificate(extra), "/cases/0/waived: not a member schema 1 defines");

  nlohmann::json missing = sealed_sample();
  missing["device"].erase("driver");
  missing.erase("certificate");
  expect_rejected(with_certificate(missing), "/device/driver: missing");
}

TEST(VerifyReport, RejectsMistypedMembers) {
  struct Edit {
    nlohmann::json::json_pointer where;
    nlohmann::json value;
    std::string message;
  };
  const std::vector<Edit> edits = {
      {"/seed"_json_pointer, "7", "/seed: expected an unsigned integer"},
      {"/runs"_json_pointer, -1, "/runs: expected an unsigned integer"},
      {"/runs"_json_pointer, 1.5, "/runs: expected an unsigned integer"},
      {"/certified"_json_pointer, 1, "/certified: expected true or false"},
      {"/device/max_workgroup_size"_json_pointer, {1, 2}, "/device/max_workgroup_size: expected"},
      {"/cases/0/status"_json_pointer, nullptr, "/cases/0/status: expected a string"},
      {"/timing_us/phases/open"_json_pointer, "fast", "/timing_us/phases: expected an object"},
  };
  for (const Edit& edit : edits) {
    nlohmann::json j = sealed_sample();
    j[edit.where] = edit.value;
    j.erase("certificate");
    expect_rejected(with_certificate(j), edit.message);
  }
}

TEST(VerifyReport, RejectsUnknownStatusAndLevelNames) {
  nlohmann::json status = sealed_sample();
  status["cases"][0]["status"] = "waived";
  status.erase("certificate");
  expect_rejected(with_certificate(status), "/cases/0/status: `waived` is no status");
  nlohmann::json level = sealed_sample();
  level["cases"][0]["level"] = "l1";  // level_named would take it; the writer never writes it
  level.erase("certificate");
  expect_rejected(with_certificate(level), "/cases/0/level: not a level");
}

TEST(Certificate, RejectsMembersTheDigestDoesNotCover) {
  nlohmann::json extra = sealed_sample();
  extra["certificate"]["certified_level"] = "L4";
  expect_rejected(extra, "`certified_level`");
  nlohmann::json canonicalization = sealed_sample();
  canonicalization["certificate"]["canonicalization"] = "none";
  expect_rejected(canonicalization, "canonicalization");
}

TEST(ParseReportText, FindsAKeyRepeatedInOneObject) {
  auto top = parse_report_text(R"({"certified": false, "certified": true})");
  ASSERT_TRUE(top.ok());
  EXPECT_EQ(top->repeated_key, "certified");
  auto nested = parse_report_text(R"({"cases": [{"status": "fail", "status": "pass"}]})");
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(nested->repeated_key, "status");
  // The same key in two different objects is no repeat.
  auto distinct = parse_report_text(R"({"a": {"id": 1}, "b": {"id": 2}, "id": 3})");
  ASSERT_TRUE(distinct.ok());
  EXPECT_FALSE(distinct->repeated_key);
  EXPECT_FALSE(parse_report_text(R"({"a": )").ok());
}

TEST(ParseReportText, RefusesNestingPastTheBound) {
  // 100,000 levels overflowed the stack when the parsed value was copied.
  const std::string deep =
      R"({"schema_version": 1, "a": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
  auto parsed = parse_report_text(deep);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("nested more than 64 levels deep"), std::string::npos)
      << parsed.error().message;
  // 64 levels (the outer object and 63 arrays) is still read; 65 is not.
  const auto nested = [](size_t arrays) {
    return "{\"a\": " + std::string(arrays, '[') + std::string(arrays, ']') + "}";
  };
  EXPECT_TRUE(parse_report_text(nested(63)).ok());
  EXPECT_FALSE(parse_report_text(nested(64)).ok());
}

TEST(Certificate, RejectsMissingCertificateAndUnknownSchema) {
  nlohmann::json j = report_to_json(sample_report());
  EXPECT_FALSE(verify_certificate(j).ok());
  nlohmann::json k = with_certificate(report_to_json(sample_report()));
  k["schema_version"] = 99;
  auto result = verify_certificate(k);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("schema_version"), std::string::npos);
  EXPECT_FALSE(verify_certificate(nlohmann::json::array()).ok());
}

TEST(ReportJson, CarriesTheSchemaFieldsTheIssueNames) {
  nlohmann::json j = report_to_json(sample_report());
  for (const char* key : {"schema_version", "spec_snapshot", "suite_version", "backend", "device",
                          "seed", "levels", "cases", "certified", "timing_us"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["spec_snapshot"], "vyre-0.4.0+pin.1");
  EXPECT_EQ(j["cases"][0]["status"], "pass");
  EXPECT_EQ(j["cases"][0]["distinct_outputs"], 1);
}

TEST(ReportJson, ShowsBuffersAsHexAndTruncatesHugeOnes) {
  BufferSet small = {{"out", {0x01, 0xab}}};
  EXPECT_EQ(buffers_to_json(small)["out"], "01ab");
  BufferSet huge = {{"out", ByteBuffer(100000, 0)}};
  std::string text = buffers_to_json(huge)["out"];
  EXPECT_LT(text.size(), 10000u);
  EXPECT_NE(text.find("100000 bytes"), std::string::npos);
}

}  // namespace
}  // namespace vyre::certify

namespace vyre::certify {
namespace {

/// An L5 report: one failing random program with both repros and a
/// coverage summary.
Report l5_report() {
  Report r = sample_report();
  r.requested_level = Level::L5;
  CaseResult c;
  c.id = "L5/random/000000/identity";
  c.level = Level::L5;
  c.verdict = Verdict::Fail;
  c.failure = Failure{};
  c.failure->repro = "repro/L5_random_000000_identity.vyre";
  c.failure->reduced_repro = "repro/L5_random_000000_identity_reduced.vyre";
  c.failure->reduced_symptom = "fail: buffer `out` differs";
  c.failure->original_repro = "repro/L5_random_000000_identity_original.vyre";
  r.cases.push_back(c);
  RandomProgramSummary s;
  s.generated = 400;
  s.discarded = 1;
  s.programs = 399;
  s.categories = {{"bin", 40, 41}, {"kind@context", 100, 100}};
  s.not_reached = {"bin.add u32"};
  r.random_programs = s;
  judge(r);
  return r;
}

TEST(VerifyReport, AcceptsL5MembersAndRejectsThemMistyped) {
  const nlohmann::json j = report_to_json(l5_report());
  ASSERT_EQ(j["random_programs"]["coverage"]["not_reached"][0], "bin.add u32");
  ASSERT_EQ(j["cases"][1]["failure"]["reduced_repro"],
            "repro/L5_random_000000_identity_reduced.vyre");
  auto parsed = parse_report_text(with_certificate(j).dump(2));
  ASSERT_TRUE(parsed.ok());
  auto result = verify_report(parsed->json);
  ASSERT_TRUE(result.ok()) << result.error().message;

  nlohmann::json missing = j;
  missing["random_programs"]["coverage"]["not_reached"] = "bin.add u32";
  expect_rejected(with_certificate(missing),
                  "/random_programs/coverage/not_reached: expected an array of strings");
  nlohmann::json reduced = j;
  reduced["cases"][1]["failure"]["reduced_repro"] = 3;
  expect_rejected(with_certificate(reduced), "/cases/1/failure/reduced_repro: expected a string");
  ASSERT_EQ(j["cases"][1]["failure"]["reduced_symptom"], "fail: buffer `out` differs");
  nlohmann::json symptom = j;
  symptom["cases"][1]["failure"]["reduced_symptom"] = 3;
  expect_rejected(with_certificate(symptom), "/cases/1/failure/reduced_symptom: expected a string");
  nlohmann::json extra = j;
  extra["random_programs"]["coverage"]["categories"][0]["waived"] = 1;
  expect_rejected(with_certificate(extra), "waived: not a member schema 1 defines");
  // Sealed, then edited: the digest no longer matches.
  nlohmann::json edited = with_certificate(j);
  edited["random_programs"]["discarded"] = 0;
  expect_rejected(edited, "certificate digest mismatch");
}

}  // namespace
}  // namespace vyre::certify
