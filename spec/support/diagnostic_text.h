// How every tool of the suite writes where a problem is: "L:C" inside a
// message, "FILE:L:C: RULE: message" as a line of its own (the form compilers
// use, so editors and CI annotate it).
#pragma once

#include <string>
#include <string_view>

#include "spec/support/source_loc.h"

namespace vyre {

/// "L:C".
std::string line_col(SourceLoc loc);

/// " at L:C" for a known location, "" for a node built in code: for
/// appending to a message.
std::string at_location(SourceLoc loc);

/// "FILE:L:C: RULE: message", or "FILE:L:C: message" when `rule` is empty.
std::string file_diagnostic(std::string_view file, SourceLoc loc, std::string_view rule,
                            std::string_view message);

}  // namespace vyre
