#include "certify/suite/level.h"

#include <array>

namespace vyre::certify {
namespace {

struct LevelRow {
  Level level;
  std::string_view name;
  std::string_view summary;
};

constexpr std::array<LevelRow, 5> kLevels = {{
    {Level::L1, "L1",
     "ops: every BinOp, UnOp, AtomicOp and cast on spec tables, every primitive op"},
    {Level::L2, "L2",
     "execution model: ids, barriers, workgroup memory, atomics, out-of-bounds, control flow"},
    {Level::L3, "L3", "graph: graph.bfs and the dataflow engine on every graph archetype"},
    {Level::L4, "L4", "scale: seeded generated graphs and resource-saturation cases"},
    {Level::L5, "L5",
     "random programs: seeded well-formed programs and their metamorphic variants (X2)"},
}};

}  // namespace

std::string_view name_of(Level level) {
  return kLevels[static_cast<size_t>(level)].name;
}
std::string_view summary_of(Level level) {
  return kLevels[static_cast<size_t>(level)].summary;
}

std::optional<Level> level_named(std::string_view name) {
  for (const LevelRow& row : kLevels) {
    if (name.size() == 2 && (name[0] == 'L' || name[0] == 'l') && name[1] == row.name[1]) {
      return row.level;
    }
  }
  return std::nullopt;
}

std::span<const Level> all_levels() {
  static constexpr std::array<Level, 5> levels = {Level::L1, Level::L2, Level::L3, Level::L4,
                                                  Level::L5};
  return levels;
}

}  // namespace vyre::certify
