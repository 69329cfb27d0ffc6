#include "certify/gate/seed_policy.h"

#include <array>

namespace vyre::certify {
namespace {

struct PolicyName {
  SeedPolicyKind kind;
  std::string_view name;
};
constexpr std::array<PolicyName, 2> kPolicyNames = {{
    {SeedPolicyKind::Fixed, "fixed"},
    {SeedPolicyKind::Date, "date"},
}};

}  // namespace

std::string_view name_of(SeedPolicyKind kind) {
  for (const PolicyName& p : kPolicyNames) {
    if (p.kind == kind) return p.name;
  }
  return "?";
}

std::optional<SeedPolicyKind> seed_policy_named(std::string_view name) {
  for (const PolicyName& p : kPolicyNames) {
    if (p.name == name) return p.kind;
  }
  return std::nullopt;
}

uint64_t seed_of_utc_date(std::time_t when) {
  std::tm tm{};
  gmtime_r(&when, &tm);
  return static_cast<uint64_t>(tm.tm_year + 1900) * 10000 +
         static_cast<uint64_t>(tm.tm_mon + 1) * 100 + static_cast<uint64_t>(tm.tm_mday);
}

uint64_t seed_for(const SeedPolicy& policy, std::time_t when) {
  return policy.kind == SeedPolicyKind::Date ? seed_of_utc_date(when) : policy.value;
}

}  // namespace vyre::certify
