// One row per diagnostic message: a program that triggers exactly that
// message, the exact expected text (hand-copied from seed 004 for V001-V025,
// from RULES.md for ours), and a near-miss program that is valid.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "spec/ir/op_registry.h"
#include "spec/validate/messages.h"
#include "spec/validate/validator.h"

namespace vyre::testing {

/// A negative and a positive case for one message of one rule.
struct RuleCase {
  std::string name;
  RuleId rule;
  MessageId message_id;
  /// Triggers exactly one diagnostic: `rule` with `message`.
  Program negative;
  std::string message;
  /// As close to `negative` as possible, and valid.
  Program positive;
  /// The registry to validate with; the standard one when null.
  std::shared_ptr<const OpRegistry> ops = nullptr;
};

/// Cases for the rules on buffers, scoping, calls, limits and control flow.
std::vector<RuleCase> structural_rule_cases();
/// Cases for the rules of the type checker.
std::vector<RuleCase> type_rule_cases();

}  // namespace vyre::testing
