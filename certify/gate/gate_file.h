// The gate file (`vyre-certify --gate gate.toml`): a nightly gate's options
// and known failures in one reviewed TOML file. Every key is optional; the
// command line overrides any of them (certify/gate/README.md lists the keys).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "certify/report/known_failure.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// One command-line option a gate file stands for: `--flag value`.
struct GateOption {
  std::string flag;
  std::string value;
};

/// What a gate file sets: the options its keys stand for, each checked
/// against its row of kCertifyOptions (type and range, at the key's line and
/// column) and handed to the command line's parser as `--flag value`, so the
/// command line's own checks and overrides apply to them; an absent key
/// leaves the option to the command line or its default.
struct GateFile {
  /// In kCertifyOptions' order; `seed` gives --seed-policy and, for policy
  /// "fixed", --seed.
  std::vector<GateOption> options;
  std::vector<KnownFailure> known_failures;
};

/// Parses a gate file's text; `origin` names it in errors. Errors (unknown
/// key, wrong type, bad value, malformed TOML) read
/// `gate file FILE:LINE:COL: problem. Fix: fix.`
Result<GateFile> parse_gate_file(std::string_view toml_text, std::string_view origin);

/// Reads and parses the gate file at `path`.
Result<GateFile> load_gate_file(const std::string& path);

}  // namespace vyre::certify
