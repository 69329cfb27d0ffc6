// The value semantics of every valid cast (pinned spec section 4), as data:
// each (from, to) cell says where every word of the result comes from. The
// interpreter applies the same recipes to lane vectors, so casts, like the
// operators in scalar_ops.h, have one source of semantics.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "spec/ir/types.h"

namespace vyre::reference {

/// Where one word of a cast's result comes from.
enum class WordSource : uint8_t {
  Word0,        ///< Source word 0 (x, lo, the scalar itself).
  Word1,        ///< Source word 1 (y, hi).
  Word2,        ///< Source word 2 (z).
  Word3,        ///< Source word 3 (w).
  Zero,         ///< The constant 0 (zero extension).
  SignOfWord0,  ///< 0xFFFFFFFF when word 0 is negative as an i32, else 0.
  AnyNonZero,   ///< 1 when any source word is non-zero, else 0 (to Bool).
};

/// How to build a cast's result: one source per result word.
struct CastRecipe {
  uint32_t words = 0;
  std::array<WordSource, 4> source = {};
};

/// The recipe of a valid cast, or nullopt when the cast table rejects it (V012,
/// V023) or no value of the source type exists (Bytes).
std::optional<CastRecipe> cast_recipe(DataType from, DataType to);

/// One value as its words (unused words are 0).
using ValueWords = std::array<uint32_t, 4>;

/// Applies a recipe to one value of the source type with `source_words` words.
ValueWords apply_cast(const CastRecipe& recipe, const ValueWords& value, uint32_t source_words);

}  // namespace vyre::reference
