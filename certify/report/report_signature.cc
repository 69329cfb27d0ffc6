#include "certify/report/report_signature.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "certify/report/report_json.h"

namespace vyre::certify {
namespace {

constexpr std::string_view kAlgorithm = "ed25519";
// Names the scheme inside the signed bytes, so a signature over a report can
// never be taken for a signature over anything else the key signs.
constexpr std::string_view kMessagePrefix = "vyre-certify report.json ed25519 signature v1\n";
constexpr size_t kFingerprintHexDigits = 64;
constexpr size_t kSignatureBytes = 64;
// A PEM key is well under a kilobyte; anything far larger is not one.
constexpr uintmax_t kMaxKeyFileBytes = 64 * 1024;

std::string openssl_error() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "no detail from OpenSSL";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

/// The text of a PEM file, and the label of its first block ("PRIVATE KEY").
struct PemText {
  std::string text;
  std::string label;
};

Result<PemText> read_pem(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Error{path + ": no such file; give the path of a PEM key file"};
  }
  if (std::filesystem::file_size(path, ec) > kMaxKeyFileBytes || ec) {
    return Error{path + ": larger than 64 KiB, not a PEM key file"};
  }
  std::ifstream f(path, std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  if (!f) return Error{path + ": cannot be read"};
  PemText pem{text.str(), ""};
  constexpr std::string_view kBegin = "-----BEGIN ";
  const size_t begin = pem.text.find(kBegin);
  const size_t end = begin == std::string::npos ? begin : pem.text.find("-----", begin + 11);
  if (end == std::string::npos) {
    return Error{path +
                 ": not a PEM file (no `-----BEGIN ...-----` line); make an Ed25519 key "
                 "with `openssl genpkey -algorithm ed25519 -out KEY.pem`"};
  }
  pem.label = pem.text.substr(begin + kBegin.size(), end - begin - kBegin.size());
  return pem;
}

std::shared_ptr<evp_pkey_st> owned(EVP_PKEY* key) {
  return std::shared_ptr<evp_pkey_st>(key, EVP_PKEY_free);
}

/// A passphrase callback that gives none: an encrypted key fails to load
/// instead of OpenSSL prompting on the terminal.
int no_passphrase(char*, int, int, void*) {
  return -1;
}

Result<std::string> fingerprint_of(EVP_PKEY* key) {
  unsigned char* der = nullptr;
  const int length = i2d_PUBKEY(key, &der);
  if (length <= 0) return Error{"cannot encode the public key: " + openssl_error()};
  std::string fingerprint(sha256_hex(std::string_view(reinterpret_cast<const char*>(der), length)));
  OPENSSL_free(der);
  return fingerprint;
}

Result<Ok> check_ed25519(EVP_PKEY* key, const std::string& path) {
  if (EVP_PKEY_get_id(key) == EVP_PKEY_ED25519) return Ok{};
  const char* type = EVP_PKEY_get0_type_name(key);
  return Error{path + ": a " + std::string(type != nullptr ? type : "non-Ed25519") +
               " key, not Ed25519; make one with `openssl genpkey -algorithm ed25519`"};
}

bool is_hex(const std::string& text, size_t digits) {
  return text.size() == digits && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::vector<unsigned char> bytes_of_hex(const std::string& text) {
  std::vector<unsigned char> bytes;
  for (size_t i = 0; i + 1 < text.size(); i += 2) {
    bytes.push_back(static_cast<unsigned char>(std::stoi(text.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

std::string hex_of(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[data[i] >> 4]);
    out.push_back(kDigits[data[i] & 15]);
  }
  return out;
}

}  // namespace

Result<Ed25519Key> Ed25519Key::from_pem(const std::string& text, const std::string& path,
                                        bool is_private) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(
      BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), BIO_free);
  EVP_PKEY* raw = is_private ? PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr)
                             : PEM_read_bio_PUBKEY(bio.get(), nullptr, no_passphrase, nullptr);
  if (raw == nullptr) {
    return Error{path + ": not a readable " + (is_private ? "private" : "public") +
                 " key: " + openssl_error()};
  }
  Ed25519Key key;
  key.key_ = owned(raw);
  if (auto ok = check_ed25519(raw, path); !ok) return ok.error();
  auto fingerprint = fingerprint_of(raw);
  if (!fingerprint) return Error{path + ": " + fingerprint.error().message};
  key.fingerprint_ = *fingerprint;
  key.is_private_ = is_private;
  return key;
}

Result<Ed25519Key> Ed25519Key::load_private(const std::string& path) {
  auto pem = read_pem(path);
  if (!pem) return pem.error();
  if (pem->label == "PUBLIC KEY") {
    return Error{path +
                 ": a public key; signing needs the private key (the file `openssl "
                 "genpkey -algorithm ed25519` wrote)"};
  }
  if (pem->label == "ENCRYPTED PRIVATE KEY") {
    return Error{path + ": an encrypted private key; give it unencrypted (`openssl pkey -in " +
                 path + " -out KEY.pem`) and keep that file where only the signer reads it"};
  }
  if (pem->label != "PRIVATE KEY") {
    return Error{path + ": holds a `" + pem->label +
                 "`, not an Ed25519 private key (`-----BEGIN PRIVATE KEY-----`); make one with "
                 "`openssl genpkey -algorithm ed25519`"};
  }
  return from_pem(pem->text, path, true);
}

Result<Ed25519Key> Ed25519Key::load_public(const std::string& path) {
  auto pem = read_pem(path);
  if (!pem) return pem.error();
  if (pem->label.ends_with("PRIVATE KEY")) {
    return Error{path +
                 ": a private key given as the public key; give its public half "
                 "(`openssl pkey -in " +
                 path + " -pubout -out PUB.pem`) and keep the private key secret"};
  }
  if (pem->label == "CERTIFICATE") {
    return Error{path + ": an X.509 certificate; give its public key (`openssl x509 -in " + path +
                 " -pubkey -noout`)"};
  }
  if (pem->label != "PUBLIC KEY") {
    return Error{path + ": holds a `" + pem->label +
                 "`, not an Ed25519 public key (`-----BEGIN PUBLIC KEY-----`)"};
  }
  return from_pem(pem->text, path, false);
}

std::string signed_message(const nlohmann::json& sealed) {
  nlohmann::json unsigned_report = sealed;
  if (unsigned_report.contains("certificate") && unsigned_report["certificate"].is_object()) {
    unsigned_report["certificate"].erase("signature");
  }
  return std::string(kMessagePrefix) + canonical_json(unsigned_report);
}

Result<Ok> check_signature_form(const nlohmann::json& signature) {
  const auto text = [&](const char* key) {
    return signature.is_object() && signature.contains(key) && signature[key].is_string()
               ? signature[key].get<std::string>()
               : std::string();
  };
  if (!signature.is_object() || signature.size() != 3) {
    return Error{
        "/certificate/signature: must hold exactly algorithm, public_key_sha256 and value"};
  }
  if (text("algorithm") != kAlgorithm) {
    return Error{"/certificate/signature/algorithm: unsupported; expected ed25519"};
  }
  if (!is_hex(text("public_key_sha256"), kFingerprintHexDigits)) {
    return Error{"/certificate/signature/public_key_sha256: not 64 lower-case hex digits"};
  }
  if (!is_hex(text("value"), 2 * kSignatureBytes)) {
    return Error{"/certificate/signature/value: not 128 lower-case hex digits (64 bytes)"};
  }
  return Ok{};
}

Result<nlohmann::json> sign_report(nlohmann::json sealed, const Ed25519Key& key) {
  if (!key.is_private_) return Error{"a public key cannot sign; give the private key"};
  const std::string message = signed_message(sealed);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  unsigned char signature[kSignatureBytes];
  size_t length = sizeof signature;
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.key_.get()) != 1 ||
      EVP_DigestSign(ctx.get(), signature, &length,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1 ||
      length != kSignatureBytes) {
    return Error{"cannot sign the report: " + openssl_error()};
  }
  sealed["certificate"]["signature"] = {{"algorithm", kAlgorithm},
                                        {"public_key_sha256", key.fingerprint_},
                                        {"value", hex_of(signature, length)}};
  return sealed;
}

Result<SignatureStatus> check_signature(const nlohmann::json& sealed, const Ed25519Key* expected) {
  const nlohmann::json& certificate = sealed.at("certificate");
  if (!certificate.contains("signature")) {
    if (expected == nullptr) return SignatureStatus{};
    return Error{"the report is unsigned; --public-key asks for one signed by key " +
                 expected->fingerprint()};
  }
  const nlohmann::json& signature = certificate["signature"];
  if (auto form = check_signature_form(signature); !form) return form.error();
  SignatureStatus status{true, signature["public_key_sha256"].get<std::string>(), false};
  if (expected == nullptr) return status;
  if (status.signer != expected->fingerprint()) {
    return Error{"signed by key " + status.signer + ", not by the --public-key's key " +
                 expected->fingerprint()};
  }
  const std::string message = signed_message(sealed);
  const std::vector<unsigned char> value = bytes_of_hex(signature["value"].get<std::string>());
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  const bool good =
      ctx &&
      EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, expected->key_.get()) == 1 &&
      EVP_DigestVerify(ctx.get(), value.data(), value.size(),
                       reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
  ERR_clear_error();
  if (!good) {
    return Error{
        "the Ed25519 signature does not match the report: the report or its signature "
        "was changed after key " +
        status.signer + " signed it"};
  }
  status.signer_checked = true;
  return status;
}

}  // namespace vyre::certify
