// The output folder of a command that writes files (certify's reports, fuzz's
// findings), checked before any work starts.
#pragma once

#include <optional>
#include <string>

namespace vyre::cli {

/// Creates `dir` if needed and proves it writable with a fresh, uniquely
/// named file (never one of the user's); why not, as a message.
std::optional<std::string> check_writable(const std::string& dir);

/// True when `dir` is `folder` or lies inside it, after resolving `.`, `..`
/// and symbolic links of the parts that exist: where a command must not
/// write because it reads `folder`.
bool same_or_inside(const std::string& dir, const std::string& folder);

}  // namespace vyre::cli
