// report.json: the versioned, machine-readable report and its certificate, a
// SHA-256 digest over the canonical JSON that `vyre-certify verify` recomputes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "certify/report/report.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// The report as JSON, without its certificate.
nlohmann::json report_to_json(const Report& report);

/// Canonical text of a JSON value: keys sorted, no whitespace, integers only
/// (the report holds no floating-point numbers, so the text is stable).
std::string canonical_json(const nlohmann::json& value);

/// Hex digits of a case's device_fingerprint.
inline constexpr size_t kDeviceFingerprintHexDigits = 16;

/// What every case of a report records as the backend and device it ran on:
/// the first kDeviceFingerprintHexDigits hex digits of sha256_hex of the
/// canonical {"backend": backend, "device": device} (the report's own
/// members). A report relabelled at the top no longer matches its cases.
std::string device_fingerprint(std::string_view backend, const nlohmann::json& device);

/// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

/// Adds the "certificate" member: the digest of the canonical JSON of the rest.
nlohmann::json with_certificate(nlohmann::json report);

/// Recomputes the digest of a report read from disk; an Error says what is
/// wrong (no certificate, unknown schema, a certificate member this tool does
/// not write, digest mismatch). Returns the digest.
Result<std::string> verify_certificate(const nlohmann::json& report);

/// report.json as read from disk.
struct ParsedReport {
  nlohmann::json json;
  /// The first key that appears twice within one object: the parser keeps
  /// one of the two, so such a file is not the report that was sealed.
  std::optional<std::string> repeated_key;
};

/// How deep arrays and objects may nest in report.json: a report reaches
/// about 5 levels; a far deeper file would overflow the stack of code that
/// walks values recursively (copying, hashing), so it is refused.
inline constexpr int kMaxReportDepth = 64;

/// Parses report.json text; an Error when it is not valid JSON or nests
/// deeper than kMaxReportDepth.
Result<ParsedReport> parse_report_text(std::string_view text);

/// The device's capabilities as report.json's `device` member.
nlohmann::json device_to_json(const Capabilities& device);

/// One level's summary as report.json writes it.
nlohmann::json level_to_json(const LevelSummary& level);

/// Buffers in JSON: name -> lower-case hex of the bytes (capped for size).
nlohmann::json buffers_to_json(const BufferSet& buffers);

}  // namespace vyre::certify
