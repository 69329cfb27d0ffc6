// `vyre-certify rules [--json]`: the validation rule table (spec/validate/rules.def).
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "certify/cli/command.h"
#include "spec/validate/rule_id.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kRulesUsage =
    "vyre-certify rules [--json]\n"
    "  Lists every validation rule: its stable id and what it checks (spec/validate/RULES.md\n"
    "  has the messages). --json prints a JSON array of {id, summary}.";

}  // namespace

std::string_view rules_usage() {
  return kRulesUsage;
}

int cmd_rules(std::span<const std::string> args) {
  const bool json = args.size() == 1 && args[0] == "--json";
  if (!args.empty() && !json) {
    std::fprintf(stderr, "usage: %.*s\n", static_cast<int>(kRulesUsage.size()), kRulesUsage.data());
    return kExitUsage;
  }
  if (json) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (RuleId id : all_rules()) {
      array.push_back({{"id", std::string(name_of(id))}, {"summary", std::string(summary_of(id))}});
    }
    std::printf("%s\n", array.dump(2).c_str());
    return kExitOk;
  }
  for (RuleId id : all_rules()) {
    const std::string_view name = name_of(id);
    const std::string_view summary = summary_of(id);
    std::printf("%.*s  %.*s\n", static_cast<int>(name.size()), name.data(),
                static_cast<int>(summary.size()), summary.data());
  }
  return kExitOk;
}

}  // namespace vyre::cli
