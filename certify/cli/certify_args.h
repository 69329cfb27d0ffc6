// The command line (and gate file) of `vyre-certify --backend NAME ...`
// parsed into the run's options, one setter per row of the options table
// (certify/gate/certify_option_table.h).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "certify/cli/backend_choice.h"
#include "certify/cli/shard_and_baseline.h"
#include "certify/gate/certify_option_table.h"
#include "certify/report/report_signature.h"
#include "certify/run/certification_run.h"

namespace vyre::cli {

/// The certification's options, resolved.
struct CertifyArgs {
  certify::CertifyOptions run;
  BackendChoice backend;
  ShardBaselineArgs gate;
  /// --device all or a comma list: the run is split over these devices.
  std::optional<std::string> device_list;
  /// Whether the seed was given (--seed), not drawn by the policy.
  bool seed_given = false;
  /// --dry-run: resolve the options and the selection, run nothing.
  bool dry_run = false;
  /// --sign-key: the key's path and the key, read before any case runs.
  std::string sign_key_path;
  std::optional<certify::Ed25519Key> sign_key;
  /// Every option the command line and the gate file gave, in the order
  /// they were applied (the gate file's first), for --dry-run.
  std::vector<certify::ResolvedOption> given;
};

/// Parses the arguments, and the gate file they name, into `out`; an error
/// message on bad usage or a bad gate file. A command-line option overrides
/// the gate file's (--seed or --seed-policy replaces its whole seed); an
/// option given twice on the command line is refused.
std::optional<std::string> parse_certify_args(std::span<const std::string> args, CertifyArgs& out);

}  // namespace vyre::cli
