// Hand-written tables for every valid cast cell (pinned spec section 4)
// between the six value types; Bytes has no values (SEMANTICS S2), so its only
// valid cell, the identity, has no runtime case. Each case loads four values
// of the source type, casts them and stores the results; the Bool source
// memory holds 0, 1, 2 and 0x80000000, so loading it also checks that a Bool
// load yields word != 0.
#include <map>

#include "reference/spec_tables/case_builder.h"
#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {
namespace {

using namespace vyre::build;
using spec_tables::guarded;
using spec_tables::make_case;
using T = DataType;

constexpr uint32_t D = 0xDEADBEEF;
constexpr uint32_t C = 0xCAFEBABE;

/// Four values per source type, as memory words.
const std::map<T, std::vector<uint32_t>>& sources() {
  static const std::map<T, std::vector<uint32_t>> s = {
      {T::U32, {0, 1, 0x80000000, D}},
      {T::I32, {0, 1, 0xFFFFFFFF, 0x80000000}},
      {T::Bool, {0, 1, 2, 0x80000000}},
      {T::U64, {0, 0, 1, 0, 0, 1, D, C}},
      {T::Vec2U32, {0, 0, 0, 5, 7, 0, D, C}},
      {T::Vec4U32, {0, 0, 0, 0, 0, 0, 0, 9, 1, 2, 3, 4, D, C, 0x55555555, 0xAAAAAAAA}},
  };
  return s;
}

struct Cell {
  T from;
  T to;
  std::vector<uint32_t> expected;  ///< Four results, as memory words.
};

// clang-format off
const std::vector<Cell>& cells() {
  static const std::vector<Cell> c = {
      // U32: identity, bitcast, != 0, zero-extend, splat.
      {T::U32, T::U32, {0, 1, 0x80000000, D}},
      {T::U32, T::I32, {0, 1, 0x80000000, D}},
      {T::U32, T::Bool, {0, 1, 1, 1}},
      {T::U32, T::U64, {0, 0, 1, 0, 0x80000000, 0, D, 0}},
      {T::U32, T::Vec2U32, {0, 0, 1, 1, 0x80000000, 0x80000000, D, D}},
      {T::U32, T::Vec4U32, {0, 0, 0, 0, 1, 1, 1, 1, 0x80000000, 0x80000000, 0x80000000, 0x80000000, D, D, D, D}},
      // I32: bitcast, identity, != 0, sign-extend, splat.
      {T::I32, T::U32, {0, 1, 0xFFFFFFFF, 0x80000000}},
      {T::I32, T::I32, {0, 1, 0xFFFFFFFF, 0x80000000}},
      {T::I32, T::Bool, {0, 1, 1, 1}},
      {T::I32, T::U64, {0, 0, 1, 0, 0xFFFFFFFF, 0xFFFFFFFF, 0x80000000, 0xFFFFFFFF}},
      {T::I32, T::Vec2U32, {0, 0, 1, 1, 0xFFFFFFFF, 0xFFFFFFFF, 0x80000000, 0x80000000}},
      {T::I32, T::Vec4U32, {0, 0, 0, 0, 1, 1, 1, 1, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0x80000000, 0x80000000, 0x80000000, 0x80000000}},
      // Bool (memory 0, 1, 2, 0x80000000 loads as 0, 1, 1, 1): 0/1 everywhere.
      {T::Bool, T::U32, {0, 1, 1, 1}},
      {T::Bool, T::I32, {0, 1, 1, 1}},
      {T::Bool, T::Bool, {0, 1, 1, 1}},
      {T::Bool, T::U64, {0, 0, 1, 0, 1, 0, 1, 0}},
      {T::Bool, T::Vec2U32, {0, 0, 1, 1, 1, 1, 1, 1}},
      {T::Bool, T::Vec4U32, {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      // U64 (lo, hi): lo, lo, any word != 0, identity, same words.
      {T::U64, T::U32, {0, 1, 0, D}},
      {T::U64, T::I32, {0, 1, 0, D}},
      {T::U64, T::Bool, {0, 1, 1, 1}},
      {T::U64, T::U64, {0, 0, 1, 0, 0, 1, D, C}},
      {T::U64, T::Vec2U32, {0, 0, 1, 0, 0, 1, D, C}},
      // Vec2U32 (x, y): x, x, any, same words, identity.
      {T::Vec2U32, T::U32, {0, 0, 7, D}},
      {T::Vec2U32, T::I32, {0, 0, 7, D}},
      {T::Vec2U32, T::Bool, {0, 1, 1, 1}},
      {T::Vec2U32, T::U64, {0, 0, 0, 5, 7, 0, D, C}},
      {T::Vec2U32, T::Vec2U32, {0, 0, 0, 5, 7, 0, D, C}},
      // Vec4U32 (x, y, z, w): x, x, any, (x, y), (x, y), identity.
      {T::Vec4U32, T::U32, {0, 0, 1, D}},
      {T::Vec4U32, T::I32, {0, 0, 1, D}},
      {T::Vec4U32, T::Bool, {0, 1, 1, 1}},
      {T::Vec4U32, T::U64, {0, 0, 0, 0, 1, 2, D, C}},
      {T::Vec4U32, T::Vec2U32, {0, 0, 0, 0, 1, 2, D, C}},
      {T::Vec4U32, T::Vec4U32, {0, 0, 0, 0, 0, 0, 0, 9, 1, 2, 3, 4, D, C, 0x55555555, 0xAAAAAAAA}},
  };
  return c;
}
// clang-format on

TestCase cast_case(const Cell& cell) {
  constexpr uint32_t kValues = 4;
  const ExprPtr i = invocation_id(0);
  Program p{{storage("in", 0, BufferAccess::ReadOnly, cell.from),
             storage("out", 1, BufferAccess::ReadWrite, cell.to)},
            {spec_tables::kTableWorkgroupSize, 1, 1},
            {guarded("out", {store("out", i, cast(cell.to, load("in", i)))})}};
  return make_case(
      "spec/cast/" + std::string(name_of(cell.from)) + "_to_" + std::string(name_of(cell.to)),
      std::move(p), spec_tables::grid_for(kValues),
      {{"in", to_bytes(sources().at(cell.from))},
       {"out", zero_words(size_t{kValues} * word_count(cell.to))}},
      {{"out", to_bytes(cell.expected)}});
}

}  // namespace

std::vector<TestCase> cast_cases() {
  std::vector<TestCase> out;
  for (const Cell& cell : cells()) out.push_back(cast_case(cell));
  return out;
}

}  // namespace vyre::reference
