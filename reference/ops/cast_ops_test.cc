// Cast recipes (cast_ops.h) against a cell-by-cell hand implementation of the
// table in pinned spec section 4, and against spec/ir/casts.h's verdicts.
#include "reference/ops/cast_ops.h"

#include <gtest/gtest.h>

#include "reference/ops/witnesses.h"
#include "spec/ir/casts.h"

namespace vyre::reference {
namespace {

constexpr std::array<DataType, 6> kValueTypes = {DataType::U32,     DataType::I32,
                                                 DataType::Bool,    DataType::U64,
                                                 DataType::Vec2U32, DataType::Vec4U32};

bool is_scalar(DataType t) {
  return t == DataType::U32 || t == DataType::I32 || t == DataType::Bool;
}

/// The table read cell by cell, with the I32 sign from signed 64-bit arithmetic.
std::optional<ValueWords> cast_by_hand(DataType from, DataType to, ValueWords v) {
  const uint32_t n = word_count(from);
  bool any = false;
  for (uint32_t k = 0; k < n; ++k) any = any || v[k] != 0;
  const int64_t as_signed = static_cast<int32_t>(v[0]);
  switch (to) {
    case DataType::U32:
    case DataType::I32:
      return ValueWords{v[0], 0, 0, 0};  // id, bitcast, 0/1, lo, x
    case DataType::Bool:
      return ValueWords{any ? 1u : 0u, 0, 0, 0};
    case DataType::U64:
      if (from == DataType::I32) {
        const uint64_t wide = static_cast<uint64_t>(as_signed);
        return ValueWords{static_cast<uint32_t>(wide), static_cast<uint32_t>(wide >> 32), 0, 0};
      }
      if (is_scalar(from)) return ValueWords{v[0], 0, 0, 0};
      return ValueWords{v[0], v[1], 0, 0};
    case DataType::Vec2U32:
      if (is_scalar(from)) return ValueWords{v[0], v[0], 0, 0};
      return ValueWords{v[0], v[1], 0, 0};
    case DataType::Vec4U32:
      if (is_scalar(from)) return ValueWords{v[0], v[0], v[0], v[0]};
      if (from == DataType::Vec4U32) return v;
      return std::nullopt;  // U64 / Vec2U32 -> Vec4U32: V012
    default:
      return std::nullopt;
  }
}

TEST(CastOps, Semantics_S2_RecipeExistsExactlyForValidValueCasts) {
  for (DataType from : all_data_types()) {
    for (DataType to : all_data_types()) {
      const bool value_types = from != DataType::Bytes && to != DataType::Bytes;
      const bool valid = cast_verdict(from, to) == CastVerdict::Valid;
      EXPECT_EQ(cast_recipe(from, to).has_value(), valid && value_types)
          << name_of(from) << " -> " << name_of(to);
    }
  }
}

TEST(CastOps, EveryCellMatchesTheHandTable) {
  WitnessStream w(0xCA57);
  for (DataType from : kValueTypes) {
    for (DataType to : kValueTypes) {
      const std::optional<CastRecipe> recipe = cast_recipe(from, to);
      ASSERT_EQ(recipe.has_value(), cast_by_hand(from, to, {}).has_value())
          << name_of(from) << " -> " << name_of(to);
      if (!recipe) continue;
      EXPECT_EQ(recipe->words, word_count(to));
      for (int i = 0; i < 5000; ++i) {
        ValueWords v = {w.next(), w.next(), w.next(), w.next()};
        for (uint32_t k = word_count(from); k < 4; ++k) v[k] = 0;
        if (from == DataType::Bool) v[0] &= 1u;  // Bool values are 0 or 1
        if (i % 7 == 0) v = {0, 0, 0, 0};
        EXPECT_EQ(apply_cast(*recipe, v, word_count(from)), *cast_by_hand(from, to, v))
            << name_of(from) << " -> " << name_of(to) << " of " << v[0] << "," << v[1];
      }
    }
  }
}

TEST(CastOps, Semantics_S2_SpecExamples) {
  const auto cast = [](DataType from, DataType to, ValueWords v) {
    return apply_cast(*cast_recipe(from, to), v, word_count(from));
  };
  EXPECT_EQ(cast(DataType::I32, DataType::U64, {0xFFFFFFFEu}),
            (ValueWords{0xFFFFFFFEu, 0xFFFFFFFFu, 0, 0}));
  EXPECT_EQ(cast(DataType::I32, DataType::U64, {0x7FFFFFFFu}), (ValueWords{0x7FFFFFFFu, 0, 0, 0}));
  EXPECT_EQ(cast(DataType::U32, DataType::U64, {0xFFFFFFFEu}), (ValueWords{0xFFFFFFFEu, 0, 0, 0}));
  EXPECT_EQ(cast(DataType::U64, DataType::Bool, {0, 0x100}), (ValueWords{1, 0, 0, 0}));
  EXPECT_EQ(cast(DataType::Vec4U32, DataType::Bool, {0, 0, 0, 0}), (ValueWords{0, 0, 0, 0}));
  EXPECT_EQ(cast(DataType::Vec4U32, DataType::U64, {1, 2, 3, 4}), (ValueWords{1, 2, 0, 0}));
  EXPECT_EQ(cast(DataType::Bool, DataType::Vec4U32, {1}), (ValueWords{1, 1, 1, 1}));
  EXPECT_EQ(cast(DataType::U32, DataType::Bool, {0x80000000u}), (ValueWords{1, 0, 0, 0}));
}

}  // namespace
}  // namespace vyre::reference
