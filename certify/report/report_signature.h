// Signed certificates: an Ed25519 signature over the sealed report.json (its
// body and the digest's certificate), which says who sealed it. The digest
// alone only shows the file is self-consistent: anyone can recompute it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "spec/support/result.h"

// OpenSSL's key type, kept out of this header (only report_signature.cc
// includes OpenSSL).
struct evp_pkey_st;

namespace vyre::certify {

struct SignatureStatus;

/// An Ed25519 key read from a PEM file: a private key signs, a public key checks.
class Ed25519Key {
 public:
  /// The unencrypted Ed25519 private key in the PEM file at `path`
  /// (`openssl genpkey -algorithm ed25519`); an Error says what the file is
  /// instead (missing, not PEM, a public key, encrypted, another algorithm).
  static Result<Ed25519Key> load_private(const std::string& path);
  /// The Ed25519 public key in the PEM file at `path` (`openssl pkey -pubout`);
  /// an Error says what the file is instead (a private key among others).
  static Result<Ed25519Key> load_public(const std::string& path);

  /// Lower-case hex SHA-256 of the DER SubjectPublicKeyInfo: the key's name
  /// in reports (`openssl pkey -pubin -outform DER | sha256sum` gives the same).
  const std::string& fingerprint() const { return fingerprint_; }

 private:
  /// The key in PEM `text` read from `path` (named in errors), checked to be
  /// Ed25519, with its fingerprint.
  static Result<Ed25519Key> from_pem(const std::string& text, const std::string& path,
                                     bool is_private);
  friend Result<nlohmann::json> sign_report(nlohmann::json sealed, const Ed25519Key& key);
  friend Result<SignatureStatus> check_signature(const nlohmann::json& sealed,
                                                 const Ed25519Key* expected);
  std::shared_ptr<evp_pkey_st> key_;
  std::string fingerprint_;
  bool is_private_ = false;
};

/// Adds certificate.signature to a report sealed by with_certificate: the
/// algorithm, the signing key's fingerprint and the Ed25519 signature over
/// the signed message (signed_message). An Error when `key` is not private.
Result<nlohmann::json> sign_report(nlohmann::json sealed, const Ed25519Key& key);

/// What a report's signature says about who sealed it.
struct SignatureStatus {
  /// False: the report carries no signature.
  bool is_signed = false;
  /// The fingerprint of the key that signed it (when signed).
  std::string signer;
  /// True when the signature was checked against a given public key (it is
  /// that key's, over this very report).
  bool signer_checked = false;
};

/// Checks certificate.signature of a report whose digest verify_certificate
/// accepted. With `expected` (--public-key): the report must be signed by
/// that key and unchanged since, else an Error says which (unsigned, another
/// key, a signature that does not match). Without: reports whether it is
/// signed and by which fingerprint, the signature itself unchecked (any key
/// can sign; only a known key means anything).
Result<SignatureStatus> check_signature(const nlohmann::json& sealed, const Ed25519Key* expected);

/// The bytes an Ed25519 signature covers: a fixed prefix naming the scheme,
/// then the canonical JSON of the report without certificate.signature.
std::string signed_message(const nlohmann::json& sealed);

/// The members certificate.signature holds, checked in form (an algorithm
/// this build knows, hex of the right lengths); an Error names the problem.
Result<Ok> check_signature_form(const nlohmann::json& signature);

}  // namespace vyre::certify
