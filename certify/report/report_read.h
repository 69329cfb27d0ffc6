// report.json read back into a Report, after `verify`'s checks pass, so that
// baselines, `diff` and `merge` work on the report's data, not on its JSON.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "certify/report/report.h"
#include "certify/report/report_signature.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// A report read from disk with the digest its certificate carries.
struct SealedReport {
  Report report;
  /// The certificate digest (lower-case hex SHA-256).
  std::string digest;
  /// The file it was read from; empty when read from memory.
  std::string path;
};

/// The report `json` holds; an Error when verify_report rejects it. Buffers
/// shown cut ("...(N bytes in all, cut here)") read back as their shown bytes
/// followed by zeros up to N, so that writing the report again gives the same
/// text; those zeros are not data. mutation_score is not read: the writer
/// records this build's score where it was measured for the report's backend.
Result<SealedReport> report_from_json(const nlohmann::json& json);

/// Reads, parses and verifies the report.json at `path`; an Error names the
/// file and the problem (unreadable, not JSON, a repeated key, not verified;
/// given `signer`, a public key: not signed by it, or changed since).
Result<SealedReport> read_report_file(const std::string& path, const Ed25519Key* signer = nullptr);

}  // namespace vyre::certify
