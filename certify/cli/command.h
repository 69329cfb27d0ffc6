// The commands of the vyre-certify CLI: one table (commands.cc) naming each
// command, its summary, usage and entry point; each entry lives in its own
// cmd_NAME.cc.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vyre::cli {

/// Exit codes shared by every subcommand.
enum ExitCode : int {
  kExitOk = 0,     ///< Valid, passed, certified.
  kExitFail = 1,   ///< Invalid program, failed expectation, not certified.
  kExitUsage = 2,  ///< Bad usage, unreadable input, no usable backend.
};

/// One subcommand: `vyre-certify NAME ARGS...`.
struct Command {
  std::string_view name;
  std::string summary;
  std::string_view usage;
  int (*run)(std::span<const std::string> args);
};

/// Every command, sorted by name: the one table.
const std::vector<Command>& commands();

/// Prints `who: problem` and the usage text to stderr; returns kExitUsage.
int usage_error(std::string_view who, std::string_view problem, std::string_view usage);

// The entry point and usage of each command, in cmd_NAME.cc.

/// `vyre-certify --backend NAME ...`: certifies a backend.
int cmd_certify(std::span<const std::string> args);
std::string_view certify_usage();
/// `vyre-certify diff A.json B.json`: what changed between two reports.
int cmd_diff(std::span<const std::string> args);
std::string_view diff_usage();
/// `vyre-certify fuzz --backend NAME ...`: hunts for failures with random programs.
int cmd_fuzz(std::span<const std::string> args);
std::string_view fuzz_usage();
/// `vyre-certify generate --seed S --count N --out DIR`: writes random programs as case files.
int cmd_generate(std::span<const std::string> args);
std::string_view generate_usage();
/// `vyre-certify lower FILE ...`: writes the lowered module.
int cmd_lower(std::span<const std::string> args);
std::string_view lower_usage();
/// `vyre-certify merge --out DIR SHARD_DIR...`: joins the reports of a sharded run.
int cmd_merge(std::span<const std::string> args);
std::string_view merge_usage();
/// `vyre-certify reduce CASE.vyre --backend NAME ...`: shrinks a failing case.
int cmd_reduce(std::span<const std::string> args);
std::string_view reduce_usage();
/// `vyre-certify rules`: the validation rule table.
int cmd_rules(std::span<const std::string> args);
std::string_view rules_usage();
/// `vyre-certify run CASE.vyre ...`: runs one case and checks its expectation.
int cmd_run(std::span<const std::string> args);
std::string_view run_usage();
/// `vyre-certify validate FILE...`: validates programs.
int cmd_validate(std::span<const std::string> args);
std::string_view validate_usage();
/// "validate programs (rules V001-V0NN)", the range read from the rule table.
std::string validate_summary();
/// `vyre-certify verify REPORT.json`: re-checks a sealed report.
int cmd_verify(std::span<const std::string> args);
std::string_view verify_usage();

}  // namespace vyre::cli
