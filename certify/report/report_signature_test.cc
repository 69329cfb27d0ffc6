// Signed reports: a report signed with a key verifies against that key only,
// and no byte of it can change (even resealed with a fresh digest, as a
// forger would) without the signature failing. Bad key files are refused
// naming what they are. Keys are made here with OpenSSL's API; none is committed.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "certify/report/report_json.h"
#include "certify/report/report_signature.h"

namespace vyre::certify {
namespace {

std::filesystem::path key_dir() {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "report_signature_test";
  std::filesystem::create_directories(dir);
  return dir;
}

EVP_PKEY* fresh_key(int type) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_id(type, nullptr);
  EVP_PKEY* key = nullptr;
  EXPECT_EQ(EVP_PKEY_keygen_init(ctx), 1);
  if (type == EVP_PKEY_RSA) EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, 2048);
  EXPECT_EQ(EVP_PKEY_keygen(ctx, &key), 1);
  EVP_PKEY_CTX_free(ctx);
  return key;
}

/// Writes `key` as NAME.pem (private, PKCS#8) and NAME.pub.pem; returns the stem.
std::string write_key_pair(EVP_PKEY* key, const std::string& name) {
  const std::string stem = (key_dir() / name).string();
  FILE* f = std::fopen((stem + ".pem").c_str(), "w");
  EXPECT_EQ(PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr), 1);
  std::fclose(f);
  f = std::fopen((stem + ".pub.pem").c_str(), "w");
  EXPECT_EQ(PEM_write_PUBKEY(f, key), 1);
  std::fclose(f);
  return stem;
}

struct KeyPair {
  Ed25519Key private_key;
  Ed25519Key public_key;
};

KeyPair ed25519_pair(const std::string& name) {
  EVP_PKEY* key = fresh_key(EVP_PKEY_ED25519);
  const std::string stem = write_key_pair(key, name);
  EVP_PKEY_free(key);
  auto priv = Ed25519Key::load_private(stem + ".pem");
  auto pub = Ed25519Key::load_public(stem + ".pub.pem");
  EXPECT_TRUE(priv.ok()) << (priv ? "" : priv.error().message);
  EXPECT_TRUE(pub.ok()) << (pub ? "" : pub.error().message);
  return {*priv, *pub};
}

nlohmann::json sealed_report() {
  return with_certificate({{"schema_version", 1},
                           {"backend", "vulkan"},
                           {"certified", true},
                           {"cases", {{{"id", "L1/a"}, {"status", "pass"}}}}});
}

TEST(ReportSignature, SignedReportVerifiesAgainstItsKeyOnly) {
  const KeyPair signer = ed25519_pair("signer");
  const KeyPair other = ed25519_pair("other");
  EXPECT_EQ(signer.private_key.fingerprint(), signer.public_key.fingerprint());
  EXPECT_NE(signer.public_key.fingerprint(), other.public_key.fingerprint());
  auto signed_report = sign_report(sealed_report(), signer.private_key);
  ASSERT_TRUE(signed_report.ok()) << signed_report.error().message;
  // Signing leaves the digest valid: the signature sits in the certificate.
  EXPECT_TRUE(verify_certificate(*signed_report).ok());

  auto checked = check_signature(*signed_report, &signer.public_key);
  ASSERT_TRUE(checked.ok()) << checked.error().message;
  EXPECT_TRUE(checked->signer_checked);
  auto unchecked = check_signature(*signed_report, nullptr);
  ASSERT_TRUE(unchecked.ok());
  EXPECT_TRUE(unchecked->is_signed);
  EXPECT_FALSE(unchecked->signer_checked);
  EXPECT_EQ(unchecked->signer, signer.public_key.fingerprint());

  auto wrong = check_signature(*signed_report, &other.public_key);
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("not by the --public-key's key"), std::string::npos);
}

TEST(ReportSignature, UnsignedReportIsRefusedWhenAKeyIsGiven) {
  const KeyPair signer = ed25519_pair("unsigned");
  auto status = check_signature(sealed_report(), nullptr);
  ASSERT_TRUE(status.ok());
  EXPECT_FALSE(status->is_signed);
  auto refused = check_signature(sealed_report(), &signer.public_key);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("the report is unsigned"), std::string::npos);
}

TEST(ReportSignature, EveryFlippedByteOfTheSignedContentIsRejectedEvenResealed) {
  const KeyPair signer = ed25519_pair("flips");
  const nlohmann::json signed_report = *sign_report(sealed_report(), signer.private_key);
  const std::string text = canonical_json(signed_report);
  size_t rejected = 0;
  size_t tried = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    std::string changed = text;
    changed[i] = static_cast<char>(changed[i] ^ 0x01);
    nlohmann::json forged = nlohmann::json::parse(changed, nullptr, /*allow_exceptions=*/false);
    // A flip that breaks the JSON, or the certificate's shape, is refused earlier.
    if (forged.is_discarded() || !forged.is_object() || !forged.contains("certificate") ||
        !forged["certificate"].is_object()) {
      continue;
    }
    // A forger reseals: the digest is recomputed over the changed body, the
    // rest of the certificate kept. A flip in the digest itself is undone so.
    nlohmann::json body = forged;
    body.erase("certificate");
    forged["certificate"]["digest"] = sha256_hex(canonical_json(body));
    if (forged == signed_report) continue;
    ++tried;
    if (!check_signature(forged, &signer.public_key).ok()) ++rejected;
  }
  EXPECT_GT(tried, text.size() / 2);
  EXPECT_EQ(rejected, tried);
}

std::string write_text(const std::string& name, const std::string& text) {
  const std::string path = (key_dir() / name).string();
  std::ofstream(path) << text;
  return path;
}

void expect_refused(const Result<Ed25519Key>& key, const std::string& words) {
  ASSERT_FALSE(key.ok());
  EXPECT_NE(key.error().message.find(words), std::string::npos) << key.error().message;
}

TEST(ReportSignature, BadKeyFilesAreRefusedSayingWhatTheyAre) {
  const std::string dir = key_dir().string();
  expect_refused(Ed25519Key::load_private(dir + "/no-such-key.pem"), "no such file");
  expect_refused(Ed25519Key::load_public(dir + "/no-such-key.pem"), "no such file");
  const std::string not_pem = write_text("not_pem.pem", "just some text\n");
  expect_refused(Ed25519Key::load_private(not_pem), "not a PEM file");
  expect_refused(Ed25519Key::load_public(not_pem), "not a PEM file");
  const std::string garbled =
      write_text("garbled.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
  expect_refused(Ed25519Key::load_private(garbled), "not a readable private key");

  EVP_PKEY* rsa = fresh_key(EVP_PKEY_RSA);
  const std::string rsa_stem = write_key_pair(rsa, "rsa");
  EVP_PKEY_free(rsa);
  expect_refused(Ed25519Key::load_private(rsa_stem + ".pem"), "not Ed25519");
  expect_refused(Ed25519Key::load_public(rsa_stem + ".pub.pem"), "not Ed25519");

  EVP_PKEY* ed = fresh_key(EVP_PKEY_ED25519);
  const std::string ed_stem = write_key_pair(ed, "swapped");
  FILE* f = std::fopen((ed_stem + ".encrypted.pem").c_str(), "w");
  ASSERT_EQ(PEM_write_PKCS8PrivateKey(f, ed, EVP_aes_256_cbc(), nullptr, 0, nullptr,
                                      const_cast<char*>("secret")),
            1);
  std::fclose(f);
  EVP_PKEY_free(ed);
  expect_refused(Ed25519Key::load_public(ed_stem + ".pem"),
                 "a private key given as the public key");
  expect_refused(Ed25519Key::load_private(ed_stem + ".pub.pem"), "a public key");
  expect_refused(Ed25519Key::load_private(ed_stem + ".encrypted.pem"), "encrypted");
  // A public key cannot sign.
  auto pub = Ed25519Key::load_public(ed_stem + ".pub.pem");
  ASSERT_TRUE(pub.ok());
  EXPECT_FALSE(sign_report(sealed_report(), *pub).ok());
}

TEST(ReportSignature, MalformedSignatureMembersFailTheCertificate) {
  const KeyPair signer = ed25519_pair("malformed");
  const nlohmann::json good = *sign_report(sealed_report(), signer.private_key);
  for (const auto& [member, value] : {std::pair<std::string, nlohmann::json>{"algorithm", "rsa"},
                                      {"public_key_sha256", "abc"},
                                      {"value", std::string(128, 'g')},
                                      {"extra", "x"}}) {
    nlohmann::json bad = good;
    bad["certificate"]["signature"][member] = value;
    EXPECT_FALSE(verify_certificate(bad).ok()) << member;
  }
}

}  // namespace
}  // namespace vyre::certify
