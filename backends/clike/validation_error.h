// The validator's verdict as every lowering reports it: a lowering runs only
// on valid programs, and an invalid one is an error listing each diagnostic.
#pragma once

#include <optional>

#include "spec/ir/program.h"
#include "spec/support/result.h"

namespace vyre::clike {

/// "invalid program:" and one line per diagnostic (rule id: message);
/// nullopt when `program` is valid.
std::optional<Error> validation_error(const Program& program);

}  // namespace vyre::clike
