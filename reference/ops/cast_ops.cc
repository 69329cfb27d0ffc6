#include "reference/ops/cast_ops.h"

#include <span>

#include "spec/ir/casts.h"

namespace vyre::reference {
namespace {

using S = WordSource;

/// The six value types, in the order of the rows and columns below.
constexpr std::array<DataType, 6> kValueTypes = {DataType::U32,     DataType::I32,
                                                 DataType::Bool,    DataType::U64,
                                                 DataType::Vec2U32, DataType::Vec4U32};

constexpr CastRecipe kInvalid = {0, {}};
constexpr CastRecipe one(S a) {
  return {1, {a, S::Zero, S::Zero, S::Zero}};
}
constexpr CastRecipe two(S a, S b) {
  return {2, {a, b, S::Zero, S::Zero}};
}
constexpr CastRecipe four(S a, S b, S c, S d) {
  return {4, {a, b, c, d}};
}
constexpr CastRecipe splat4() {
  return four(S::Word0, S::Word0, S::Word0, S::Word0);
}

/// Pinned spec section 4, row = from, column = to, in kValueTypes order.
/// Bool values are already 0/1, so "0/1" from Bool is word 0 unchanged.
constexpr std::array<std::array<CastRecipe, 6>, 6> kTable = {{
    // U32 -> U32, I32, Bool, U64 (v,0), Vec2U32 (v,v), Vec4U32 splat
    {one(S::Word0), one(S::Word0), one(S::AnyNonZero), two(S::Word0, S::Zero),
     two(S::Word0, S::Word0), splat4()},
    // I32 -> ..., U64 sign-extends
    {one(S::Word0), one(S::Word0), one(S::AnyNonZero), two(S::Word0, S::SignOfWord0),
     two(S::Word0, S::Word0), splat4()},
    // Bool -> 0/1 everywhere
    {one(S::Word0), one(S::Word0), one(S::Word0), two(S::Word0, S::Zero), two(S::Word0, S::Word0),
     splat4()},
    // U64 -> lo, lo, any, id, same words, invalid (V012)
    {one(S::Word0), one(S::Word0), one(S::AnyNonZero), two(S::Word0, S::Word1),
     two(S::Word0, S::Word1), kInvalid},
    // Vec2U32 -> x, x, any, same words, id, invalid (V012)
    {one(S::Word0), one(S::Word0), one(S::AnyNonZero), two(S::Word0, S::Word1),
     two(S::Word0, S::Word1), kInvalid},
    // Vec4U32 -> x, x, any, (x,y), (x,y), id
    {one(S::Word0), one(S::Word0), one(S::AnyNonZero), two(S::Word0, S::Word1),
     two(S::Word0, S::Word1), four(S::Word0, S::Word1, S::Word2, S::Word3)},
}};

std::optional<size_t> value_type_index(DataType t) {
  for (size_t i = 0; i < kValueTypes.size(); ++i) {
    if (kValueTypes[i] == t) return i;
  }
  return std::nullopt;
}

}  // namespace

std::optional<CastRecipe> cast_recipe(DataType from, DataType to) {
  if (cast_verdict(from, to) != CastVerdict::Valid) return std::nullopt;
  // Bytes -> Bytes is valid but no Bytes value exists (SEMANTICS S2).
  const std::optional<size_t> row = value_type_index(from);
  const std::optional<size_t> column = value_type_index(to);
  if (!row || !column) return std::nullopt;
  const CastRecipe& recipe = kTable[*row][*column];
  if (recipe.words == 0) return std::nullopt;
  return recipe;
}

ValueWords apply_cast(const CastRecipe& recipe, const ValueWords& value, uint32_t source_words) {
  const std::span<const uint32_t> source(value.data(), source_words);
  ValueWords out = {0, 0, 0, 0};
  for (uint32_t k = 0; k < recipe.words; ++k) {
    switch (recipe.source[k]) {
      case S::Word0:
      case S::Word1:
      case S::Word2:
      case S::Word3:
        out[k] = value[static_cast<size_t>(recipe.source[k])];
        break;
      case S::Zero:
        out[k] = 0;
        break;
      case S::SignOfWord0:
        out[k] = (value[0] & 0x80000000u) != 0 ? 0xFFFFFFFFu : 0u;
        break;
      case S::AnyNonZero: {
        uint32_t any = 0;
        for (uint32_t w : source) any |= w;
        out[k] = any != 0 ? 1u : 0u;
        break;
      }
    }
  }
  return out;
}

}  // namespace vyre::reference
