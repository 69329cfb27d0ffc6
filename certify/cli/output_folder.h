// The output folder of a command that writes files (certify's reports, fuzz's
// findings), checked before any work starts.
#pragma once

#include <optional>
#include <string>

namespace vyre::cli {

/// Creates `dir` if needed and proves it writable with a fresh, uniquely
/// named file (never one of the user's); why not, as a message.
std::optional<std::string> check_writable(const std::string& dir);

}  // namespace vyre::cli
