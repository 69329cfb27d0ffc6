// Stable validation rule ids, listed once in rules.def.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace vyre {

/// A validation rule: V001..V025 from seed 004, V026 upward our additions.
enum class RuleId : uint8_t {
#define X(id, summary) id,
#include "spec/validate/rules.def"
#undef X
};

/// "V001" etc.
std::string_view name_of(RuleId id);
/// One-line statement of what the rule checks.
std::string_view summary_of(RuleId id);
/// Every rule in table order.
std::span<const RuleId> all_rules();

}  // namespace vyre
