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

/// DEFAULT_MAX_CALL_DEPTH of seed 004: deepest op call chain through
/// compositions (V017).
inline constexpr uint32_t kMaxCallDepth = 32;
/// DEFAULT_MAX_NESTING_DEPTH of seed 004: deepest If/Loop/Block nesting (V018).
inline constexpr uint32_t kMaxNestingDepth = 64;
/// DEFAULT_MAX_NODE_COUNT of seed 004: most statement and expression nodes
/// (V019), counting a shared subexpression once per use.
inline constexpr uint32_t kMaxNodeCount = 100000;
/// DEFAULT_MAX_EXPR_DEPTH: deepest expression tree, a leaf being depth 1 (V030).
inline constexpr uint32_t kMaxExprDepth = 128;

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
