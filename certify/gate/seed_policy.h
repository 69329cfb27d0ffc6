// How a run's seed is chosen: fixed, or derived from the UTC date so each
// night's gate draws new random inputs and programs while every shard and
// rerun of that night draws the same ones. Recorded in report.json
// (`seed_policy`) beside the seed it gave.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string_view>

namespace vyre::certify {

/// Where the seed comes from.
enum class SeedPolicyKind : uint8_t {
  Fixed,  ///< The value given.
  Date,   ///< The UTC date as the number YYYYMMDD.
};

/// A seed policy with its value (used by Fixed only).
struct SeedPolicy {
  SeedPolicyKind kind = SeedPolicyKind::Fixed;
  uint64_t value = 1;
};

/// "fixed" or "date", as report.json and the gate file write it.
std::string_view name_of(SeedPolicyKind kind);
/// The policy named exactly `name`; nullopt otherwise.
std::optional<SeedPolicyKind> seed_policy_named(std::string_view name);

/// The seed of the UTC day that `when` falls on: YYYYMMDD (2026-11-25 -> 20261125).
uint64_t seed_of_utc_date(std::time_t when);

/// The seed `policy` gives at `when`.
uint64_t seed_for(const SeedPolicy& policy, std::time_t when);

}  // namespace vyre::certify
