// Forgeries of a report that reseal its digest, as anyone can: each is caught
// by verify's checks without a key where the report's own content gives it
// away (cases removed, a level not run in full, backend or device relabelled,
// a filtered run or a shard passed off as whole), and every one of them by the
// signature when the report was signed.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdio>
#include <filesystem>
#include <functional>

#include "certify/report/report_json.h"
#include "certify/report/report_signature.h"
#include "certify/report/report_verify.h"
#include "certify/report/selection_digest.h"
#include "certify/run/report_completeness.h"
#include "certify/suite/catalog.h"

namespace vyre::certify {
namespace {

constexpr std::string_view kSuite = "9.9.9-test";

/// A run of `level` where every case of the catalogue passed on llvmpipe.
Report whole_run(Level level) {
  Report r;
  r.suite_version = std::string(kSuite);
  r.backend = "vulkan";
  r.device.device_name = "llvmpipe (LLVM 15.0.6, 256 bits)";
  r.device.driver = "llvmpipe Mesa 22.3.6";
  r.device.api = "Vulkan 1.3.230";
  r.device.preferred_workgroup_size = 8;
  r.seed = 1;
  r.runs = 1;
  r.requested_level = level;
  r.started_utc = "2026-11-27T00:00:00Z";
  for (const SuiteCase& c : build_catalog({.seed = r.seed, .up_to = level})) {
    CaseResult result;
    result.id = c.id;
    result.level = c.level;
    result.oracle = c.oracle;
    result.verdict = Verdict::Pass;
    r.cases.push_back(result);
  }
  judge(r);
  return r;
}

/// What `vyre-certify verify` decides, without a key.
Result<ReportScope> verify(const nlohmann::json& report) {
  auto digest = verify_report(report);
  if (!digest) return digest.error();
  return check_completeness(report, kSuite);
}

/// Edits the report's JSON and reseals its digest, keeping any signature.
nlohmann::json forged(nlohmann::json report, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json certificate = report["certificate"];
  report.erase("certificate");
  edit(report);
  report["certificate"] = certificate;
  report["certificate"]["digest"] = sha256_hex(canonical_json([&] {
    nlohmann::json body = report;
    body.erase("certificate");
    return body;
  }()));
  return report;
}

/// The levels and verdict a forger writes after editing the cases.
void rejudge(nlohmann::json& report) {
  Report judged;
  judged.requested_level = *level_named(report["requested_level"].get<std::string>());
  for (const nlohmann::json& c : report["cases"]) {
    CaseResult result;
    result.level = *level_named(c["level"].get<std::string>());
    result.verdict = *verdict_named(c["status"].get<std::string>());
    judged.cases.push_back(result);
  }
  judge(judged);
  report["levels"] = nlohmann::json::array();
  for (const LevelSummary& l : judged.levels) report["levels"].push_back(level_to_json(l));
  report["certified"] = judged.certified;
  report["reason"] = judged.reason;
}

void expect_rejected(const nlohmann::json& report, const std::string& words) {
  auto result = verify(report);
  ASSERT_FALSE(result.ok()) << "accepted a forgery that should mention: " << words;
  EXPECT_NE(result.error().message.find(words), std::string::npos) << result.error().message;
}

TEST(ReportCompleteness, AWholeRunIsACertificateOfItsLevel) {
  const nlohmann::json report = with_certificate(report_to_json(whole_run(Level::L2)));
  auto scope = verify(report);
  ASSERT_TRUE(scope.ok()) << scope.error().message;
  EXPECT_TRUE(scope->whole_level);
}

TEST(ReportCompleteness, RemovedCasesAreNamed) {
  Report run = whole_run(Level::L2);
  run.cases[3].verdict = Verdict::Fail;
  judge(run);
  const std::string removed = run.cases[3].id;
  const nlohmann::json report =
      forged(with_certificate(report_to_json(run)), [](nlohmann::json& r) {
        r["cases"].erase(3);
        rejudge(r);
      });
  ASSERT_TRUE(verify_report(report).ok());  // self-consistent: only completeness sees it
  expect_rejected(report, "1 missing (`" + removed + "`)");
}

TEST(ReportCompleteness, ALevelNotRunInFullIsRefused) {
  // L1 run in full, then labelled L2 with two of L2's cases.
  const Report l2 = whole_run(Level::L2);
  const nlohmann::json report =
      forged(with_certificate(report_to_json(l2)), [&](nlohmann::json& r) {
        nlohmann::json kept = nlohmann::json::array();
        size_t l2_cases = 0;
        for (const nlohmann::json& c : r["cases"]) {
          if (c["level"] == "L2" && ++l2_cases > 2) continue;
          kept.push_back(c);
        }
        r["cases"] = kept;
        rejudge(r);
      });
  ASSERT_TRUE(verify_report(report).ok());
  expect_rejected(report, "missing");
}

TEST(ReportCompleteness, FiveL5CasesClaimingL5AreRefused) {
  Report run = whole_run(Level::L5);
  size_t l5_cases = 0;
  std::erase_if(run.cases,
                [&](const CaseResult& c) { return c.level == Level::L5 && ++l5_cases > 5; });
  judge(run);
  ASSERT_TRUE(run.certified);
  const nlohmann::json report = with_certificate(report_to_json(run));
  ASSERT_TRUE(verify_report(report).ok());
  expect_rejected(report, "missing");
}

TEST(ReportCompleteness, RelabelledBackendOrDeviceIsRefused) {
  const nlohmann::json genuine = with_certificate(report_to_json(whole_run(Level::L1)));
  // The lavapipe run relabelled as the H100's OpenCL.
  expect_rejected(forged(genuine,
                         [](nlohmann::json& r) {
                           r["backend"] = "opencl";
                           r["device"]["name"] = "NVIDIA H100 80GB HBM3";
                         }),
                  "/device/api");
  // ... or as the H100's CUDA, whose API verify did not check at first.
  expect_rejected(forged(genuine,
                         [](nlohmann::json& r) {
                           r["backend"] = "cuda";
                           r["device"]["name"] = "NVIDIA H100 80GB HBM3";
                         }),
                  "/device/api");
  // The API relabelled too: the cases still record the device they ran on.
  expect_rejected(forged(genuine,
                         [](nlohmann::json& r) {
                           r["backend"] = "opencl";
                           r["device"]["name"] = "NVIDIA H100 80GB HBM3";
                           r["device"]["api"] = "OpenCL 3.0 CUDA";
                         }),
                  "device_fingerprint");
  expect_rejected(
      forged(genuine, [](nlohmann::json& r) { r["device"]["name"] = "NVIDIA H100 80GB HBM3"; }),
      "ran on another backend or device");
  // Fingerprints stripped, as from a report written before they were recorded.
  expect_rejected(forged(genuine,
                         [](nlohmann::json& r) {
                           for (nlohmann::json& c : r["cases"]) c.erase("device_fingerprint");
                         }),
                  "/device_fingerprint: missing");
}

TEST(ReportCompleteness, AFilteredRunOrAShardIsAPartNotAWhole) {
  Report filtered = whole_run(Level::L1);
  filtered.filter = "L1/spec/binop/*";
  std::erase_if(filtered.cases,
                [](const CaseResult& c) { return !c.id.starts_with("L1/spec/binop/"); });
  judge(filtered);
  auto scope = verify(with_certificate(report_to_json(filtered)));
  ASSERT_TRUE(scope.ok()) << scope.error().message;
  EXPECT_FALSE(scope->whole_level);
  EXPECT_NE(scope->part.find("filtered by `L1/spec/binop/*`"), std::string::npos);

  Report shard = whole_run(Level::L1);
  std::vector<std::string> all;
  for (const CaseResult& c : shard.cases) all.push_back(c.id);
  shard.shard = ShardInfo{1, 2, static_cast<uint32_t>(all.size()), selection_digest(all)};
  shard.cases.resize(all.size() / 2);
  judge(shard);
  scope = verify(with_certificate(report_to_json(shard)));
  ASSERT_TRUE(scope.ok()) << scope.error().message;
  EXPECT_FALSE(scope->whole_level);
  EXPECT_NE(scope->part.find("shard 1 of 2"), std::string::npos);

  // A shard naming a selection of its own (its cases only) is refused.
  std::vector<std::string> own;
  for (const CaseResult& c : shard.cases) own.push_back(c.id);
  shard.shard = ShardInfo{1, 1, static_cast<uint32_t>(own.size()), selection_digest(own)};
  expect_rejected(with_certificate(report_to_json(shard)), "/shard: names a selection");
}

TEST(ReportCompleteness, AnotherSuiteOrAnInterruptedRunIsRefused) {
  nlohmann::json report = with_certificate(report_to_json(whole_run(Level::L1)));
  auto other = check_completeness(report, "0.0.1");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("/suite_version"), std::string::npos);
  report["complete"] = false;
  auto interrupted = check_completeness(report, kSuite);
  ASSERT_FALSE(interrupted.ok());
  EXPECT_NE(interrupted.error().message.find("interrupted"), std::string::npos);
}

TEST(ReportCompleteness, EveryForgeryOfASignedReportFailsItsSignature) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr);
  EVP_PKEY* raw = nullptr;
  ASSERT_EQ(EVP_PKEY_keygen_init(ctx), 1);
  ASSERT_EQ(EVP_PKEY_keygen(ctx, &raw), 1);
  EVP_PKEY_CTX_free(ctx);
  const auto dir = std::filesystem::path(::testing::TempDir()) / "report_completeness_test";
  std::filesystem::create_directories(dir);
  FILE* f = std::fopen((dir / "key.pem").c_str(), "w");
  PEM_write_PrivateKey(f, raw, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  f = std::fopen((dir / "key.pub.pem").c_str(), "w");
  PEM_write_PUBKEY(f, raw);
  std::fclose(f);
  EVP_PKEY_free(raw);
  auto key = Ed25519Key::load_private((dir / "key.pem").string());
  auto pub = Ed25519Key::load_public((dir / "key.pub.pem").string());
  ASSERT_TRUE(key.ok() && pub.ok());

  Report run = whole_run(Level::L1);
  run.cases[0].verdict = Verdict::Fail;
  judge(run);
  const nlohmann::json genuine = *sign_report(with_certificate(report_to_json(run)), *key);
  ASSERT_TRUE(check_signature(genuine, &*pub).ok());
  const std::vector<std::function<void(nlohmann::json&)>> forgeries = {
      [](nlohmann::json& r) {  // the failing case passes
        r["cases"][0]["status"] = "pass";
        rejudge(r);
      },
      [](nlohmann::json& r) {  // the failing case removed
        r["cases"].erase(0);
        rejudge(r);
      },
      [](nlohmann::json& r) {  // relabelled, fingerprints and all
        r["backend"] = "opencl";
        r["device"]["api"] = "OpenCL 3.0 CUDA";
        r["device"]["name"] = "NVIDIA H100 80GB HBM3";
        const std::string fingerprint = device_fingerprint("opencl", r["device"]);
        for (nlohmann::json& c : r["cases"]) c["device_fingerprint"] = fingerprint;
      },
      [](nlohmann::json& r) { r["seed"] = 2; },  // another seed's programs claimed
  };
  for (size_t i = 0; i < forgeries.size(); ++i) {
    const nlohmann::json report = forged(genuine, forgeries[i]);
    EXPECT_TRUE(verify_certificate(report).ok()) << "forgery " << i << " is resealed";
    EXPECT_FALSE(check_signature(report, &*pub).ok()) << "forgery " << i;
  }
  // The consistent relabel passes every check without a key: only the
  // signature tells it from a real run on that device.
  EXPECT_TRUE(verify(forged(genuine, forgeries[2])).ok());
}

}  // namespace
}  // namespace vyre::certify
