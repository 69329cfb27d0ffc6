// The device/host split in report.json: written where the backend measured
// device time and only there, read back, sealed by the certificate, and
// checked for consistency by verify even when a forger reseals the report.
#include "certify/report/timing_checks.h"

#include <gtest/gtest.h>

#include "certify/report/report_json.h"
#include "certify/report/report_read.h"
#include "certify/report/report_verify.h"
#include "certify/report/verify_rejection_for_tests.h"

namespace vyre::certify {
namespace {

/// Cases in the sample: more than the slowest list holds.
constexpr uint64_t kCases = 12;

/// A certified L1 report of kCases passing cases: case i took 1000 * (i + 1)
/// us on the backend, of which (when `measured`) 400 * (i + 1) on the device;
/// the dispatch phase is their sum and, when measured, split accordingly.
Report sample(bool measured) {
  Report r;
  r.suite_version = "test";
  r.backend = "vulkan";
  r.device.device_name = "llvmpipe";
  r.device.api = "Vulkan 1.3";
  r.runs = 100;
  r.requested_level = Level::L1;
  uint64_t dispatch = 0;
  uint64_t device = 0;
  for (uint64_t i = 0; i < kCases; ++i) {
    CaseResult c;
    c.id = "L1/case" + std::to_string(i);
    c.level = Level::L1;
    c.verdict = Verdict::Pass;
    c.variants = 1;
    c.distinct_outputs = 1;
    c.backend_us = 1000 * (i + 1);
    if (measured) c.device_us = 400 * (i + 1);
    dispatch += c.backend_us;
    device += c.device_us.value_or(0);
    r.cases.push_back(c);
  }
  r.phase_us = {{"dispatch", dispatch}, {"other", 5}};
  r.wall_us = dispatch + 5;
  if (measured) r.dispatch_split = DispatchSplit{device, dispatch - device, kCases, 0};
  judge(r);
  return r;
}

nlohmann::json sealed(bool measured) {
  return with_certificate(report_to_json(sample(measured)));
}

TEST(DispatchSplit, WrittenWithTheSlowestCasesAndVerified) {
  const nlohmann::json j = sealed(true);
  ASSERT_TRUE(verify_report(j).ok()) << verify_report(j).error().message;
  const nlohmann::json& split = j["timing_us"]["dispatch_split"];
  // Device 400 * (1 + ... + 12) = 31200 of the 78000 us dispatch phase.
  EXPECT_EQ(split["device"], 31200u);
  EXPECT_EQ(split["host"], 78000u - 31200u);
  EXPECT_EQ(split["measured_cases"], kCases);
  EXPECT_EQ(split["unmeasured_cases"], 0u);
  const nlohmann::json& slowest = j["timing_us"]["slowest"];
  ASSERT_EQ(slowest.size(), 10u);
  EXPECT_EQ(
      slowest[0],
      (nlohmann::json{{"id", "L1/case11"}, {"backend", 12000}, {"device", 4800}, {"host", 7200}}));
  EXPECT_EQ(slowest[9]["id"], "L1/case2");
  EXPECT_EQ(j["cases"][3]["timing_us"]["device"], 1600u);
}

TEST(DispatchSplit, ReadBackAsWritten) {
  auto read = report_from_json(sealed(true));
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_TRUE(read->report.dispatch_split.has_value());
  EXPECT_EQ(read->report.dispatch_split->device_us, 31200u);
  EXPECT_EQ(read->report.dispatch_split->host_us, 46800u);
  EXPECT_EQ(read->report.cases[5].device_us, std::optional<uint64_t>(2400));
}

TEST(DispatchSplit, AbsentWhereNothingWasMeasured) {
  const nlohmann::json j = sealed(false);
  ASSERT_TRUE(verify_report(j).ok()) << verify_report(j).error().message;
  EXPECT_FALSE(j["timing_us"].contains("dispatch_split"));
  EXPECT_FALSE(j["timing_us"].contains("slowest"));
  for (const nlohmann::json& c : j["cases"]) EXPECT_FALSE(c["timing_us"].contains("device"));
  auto read = report_from_json(j);
  ASSERT_TRUE(read.ok());
  EXPECT_FALSE(read->report.dispatch_split.has_value());
  EXPECT_FALSE(read->report.cases[0].device_us.has_value());
}

TEST(DispatchSplit, ChangedTimingsBreakTheCertificate) {
  nlohmann::json j = sealed(true);
  j["timing_us"]["dispatch_split"]["device"] = 31201;
  expect_rejected(j, "certificate digest mismatch");
  nlohmann::json k = sealed(true);
  k["cases"][0]["timing_us"]["device"] = 399;
  expect_rejected(k, "certificate digest mismatch");
}

TEST(DispatchSplit, ResealedInconsistentTimingsAreRejected) {
  nlohmann::json more_than_backend = sealed(true);
  more_than_backend["cases"][0]["timing_us"]["device"] = 1001;
  expect_rejected(with_certificate(more_than_backend), "/cases/0/timing_us/device");

  nlohmann::json split_off = sealed(true);
  split_off["timing_us"]["dispatch_split"]["device"] = 40000;
  expect_rejected(with_certificate(split_off), "/timing_us/dispatch_split");

  nlohmann::json miscounted = sealed(true);
  miscounted["timing_us"]["dispatch_split"]["measured_cases"] = 11;
  miscounted["timing_us"]["dispatch_split"]["unmeasured_cases"] = 1;
  expect_rejected(with_certificate(miscounted), "measured_cases");

  nlohmann::json reordered = sealed(true);
  std::swap(reordered["timing_us"]["slowest"][0], reordered["timing_us"]["slowest"][1]);
  expect_rejected(with_certificate(reordered), "/timing_us/slowest/0");

  nlohmann::json slower = sealed(true);
  slower["timing_us"]["slowest"][2]["device"] = 1;
  slower["timing_us"]["slowest"][2]["host"] = 9999;
  expect_rejected(with_certificate(slower), "/timing_us/slowest/2");

  nlohmann::json no_split = sealed(true);
  no_split["timing_us"].erase("dispatch_split");
  no_split["timing_us"].erase("slowest");
  expect_rejected(with_certificate(no_split), "cases have a device time");

  nlohmann::json half = sealed(true);
  half["timing_us"].erase("slowest");
  expect_rejected(with_certificate(half), "come together");

  nlohmann::json stray = sealed(true);
  stray["timing_us"]["dispatch_split"]["guessed"] = 1;
  expect_rejected(with_certificate(stray), "not a member schema 1 defines");
}

}  // namespace
}  // namespace vyre::certify
