// Subcommands of the vyre-certify CLI. Each lives in its own cmd_*.cc and
// registers itself, so adding one touches no shared file.
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
  std::string_view summary;
  std::string_view usage;
  int (*run)(std::span<const std::string> args);
};

/// Registers a command at static-initialisation time; returns true.
bool register_command(const Command& command);
/// All registered commands, sorted by name.
std::vector<Command> commands();

/// Prints `who: problem` and the usage text to stderr; returns kExitUsage.
int usage_error(std::string_view who, std::string_view problem, std::string_view usage);

}  // namespace vyre::cli
