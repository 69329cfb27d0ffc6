#include "certify/report/report_json.h"

#include <gtest/gtest.h>

namespace vyre::certify {
namespace {

Report sample_report() {
  Report r;
  r.suite_version = "test";
  r.backend = "vulkan";
  r.device.device_name = "llvmpipe";
  r.seed = 7;
  r.runs = 100;
  CaseResult c;
  c.id = "L1/primitive.add";
  c.verdict = Verdict::Pass;
  c.variants = 6;
  c.distinct_outputs = 1;
  r.cases.push_back(c);
  return r;
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
}

TEST(Certificate, RejectsAHandEditedVerdict) {
  nlohmann::json j = with_certificate(report_to_json(sample_report()));
  j["certified"] = true;
  j["cases"][0]["status"] = "pass";
  j["cases"][0]["distinct_outputs"] = 2;
  auto result = verify_certificate(j);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("digest mismatch"), std::string::npos);
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
