// Reserved words of the text format, listed once in keywords.def.
#pragma once

#include <optional>
#include <string_view>

namespace vyre::text {

/// A reserved word of the grammar.
enum class Keyword : unsigned char {
#define X(e, spelling, reserved) e,
#include "spec/text/keywords.def"
#undef X
};

/// How the keyword is written.
std::string_view spelling_of(Keyword k);

/// The keyword spelled `word`, or nullopt.
std::optional<Keyword> keyword_named(std::string_view word);

/// True when `word` is a reserved keyword or an operator name, so a name
/// spelled so must be quoted.
bool is_reserved_word(std::string_view word);

}  // namespace vyre::text
