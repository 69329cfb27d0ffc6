#include "spec/validate/rule_id.h"

#include <array>

namespace vyre {
namespace {

constexpr std::array kRuleNames = {
#define X(id, summary) std::string_view(#id),
#include "spec/validate/rules.def"
#undef X
};
constexpr std::array kRuleSummaries = {
#define X(id, summary) std::string_view(summary),
#include "spec/validate/rules.def"
#undef X
};
constexpr std::array kRules = {
#define X(id, summary) RuleId::id,
#include "spec/validate/rules.def"
#undef X
};

}  // namespace

std::string_view name_of(RuleId id) {
  return kRuleNames[static_cast<size_t>(id)];
}
std::string_view summary_of(RuleId id) {
  return kRuleSummaries[static_cast<size_t>(id)];
}
std::span<const RuleId> all_rules() {
  return kRules;
}

}  // namespace vyre
