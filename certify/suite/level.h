// Certification levels (certify/LEVELS.md). Levels are cumulative: a backend
// is certified at L only when every case of L and of every level below it
// passed, at least one case of each ran, and none was unsupported.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace vyre::certify {

/// The integer track's levels, lowest first.
enum class Level : uint8_t { L1, L2, L3, L4, L5 };

/// "L1" ...
std::string_view name_of(Level level);
/// One line saying what the level covers.
std::string_view summary_of(Level level);
/// Parses "L1".."L5" (case-insensitive "l1" too).
std::optional<Level> level_named(std::string_view name);
/// Every level, lowest first.
std::span<const Level> all_levels();
/// The level `vyre-certify --backend X` certifies when --level is not given.
inline constexpr Level kDefaultLevel = Level::L5;

}  // namespace vyre::certify
