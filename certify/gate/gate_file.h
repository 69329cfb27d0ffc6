// The gate file (`vyre-certify --gate gate.toml`): a nightly gate's options
// and known failures in one reviewed TOML file. Every key is optional; the
// command line overrides any of them (certify/gate/README.md lists the keys).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "certify/gate/seed_policy.h"
#include "certify/report/known_failure.h"
#include "certify/suite/level.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// What a gate file sets; an absent key leaves the option to the command
/// line or its default.
struct GateFile {
  std::optional<std::string> backend;
  /// The --device value: "all", one device ("0", "llvmpipe") or a comma list ("0,1").
  std::optional<std::string> devices;
  std::optional<Level> level;
  std::optional<uint32_t> runs;
  std::optional<SeedPolicy> seed;
  std::optional<std::string> filter;
  std::optional<uint32_t> time_budget_s;
  std::optional<uint32_t> case_budget_s;
  std::optional<uint32_t> timeout_ms;
  std::optional<std::string> out;
  /// The --sign-key value: the Ed25519 private key that signs the report.
  std::optional<std::string> sign_key;
  std::vector<KnownFailure> known_failures;
};

/// Parses a gate file's text; `origin` names it in errors. Errors (unknown
/// key, wrong type, bad value, malformed TOML) read
/// `gate file FILE:LINE:COL: problem. Fix: fix.`
Result<GateFile> parse_gate_file(std::string_view toml_text, std::string_view origin);

/// Reads and parses the gate file at `path`.
Result<GateFile> load_gate_file(const std::string& path);

/// One command-line option a gate file stands for: `--flag value`.
struct GateOption {
  std::string flag;
  std::string value;
};

/// The gate file's scalar keys as the command-line options they stand for
/// (backend -> --backend, seed -> --seed and --seed-policy, ...), so the
/// command line's own checks and overrides apply to them. Known failures
/// have no option and are not listed.
std::vector<GateOption> gate_options(const GateFile& gate);

}  // namespace vyre::certify
