// The validator: rules V001-V025 of seed 004 with their exact messages, and the
// rules 0.4.0 lacks under new ids from V026 (pinned spec section 6). It runs
// structural then semantic checks and collects every independent error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spec/ir/op_registry.h"
#include "spec/ir/program.h"
#include "spec/validate/rule_id.h"

namespace vyre {

/// One validation failure: a stable rule id, the exact message, and the
/// location of the offending node when the program came from text.
struct Diagnostic {
  RuleId rule;
  std::string message;
  SourceLoc loc;
};

/// Every independent error in `program`, in program order; empty when valid.
std::vector<Diagnostic> validate(const Program& program,
                                 const OpRegistry& ops = OpRegistry::standard());

}  // namespace vyre
