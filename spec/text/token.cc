#include "spec/text/token.h"

#include <array>

#include "spec/text/names.h"

namespace vyre::text {
namespace {

constexpr std::array<std::string_view, 18> kTokenSpellings = {
    "end of input",
    "a name",
    "a number",
    "a string",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    ".",
    "..",
    "@",
    "<",
    ">",
};

/// Longest token text an error message quotes.
constexpr size_t kShownChars = 32;

}  // namespace

std::string_view spelling_of(TokenKind kind) {
  return kTokenSpellings[static_cast<size_t>(kind)];
}

std::string describe(const Token& token) {
  if (token.kind == TokenKind::End) return "end of input";
  std::string shown;
  if (token.kind == TokenKind::String) {
    shown = "the string ";
    append_string_literal(shown, token.value.substr(0, kShownChars));
    if (token.value.size() > kShownChars) shown += "...";
    return shown;
  }
  shown = "`";
  shown += token.text.substr(0, kShownChars);
  if (token.text.size() > kShownChars) shown += "...";
  shown += "`";
  return shown;
}

}  // namespace vyre::text
