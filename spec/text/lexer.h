// Turns text into tokens on demand, one at a time, so memory stays
// proportional to the IR built rather than to the token count.
#pragma once

#include <cstdint>
#include <string_view>

#include "spec/text/token.h"

namespace vyre::text {

/// Splits the text format into tokens, skipping whitespace and `#` comments.
/// Throws SyntaxError (see syntax_error.h) on a byte that starts no token.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  /// The next token; End (repeatedly) once the text is used up.
  Token next();

 private:
  char at(size_t offset) const { return offset < text_.size() ? text_[offset] : '\0'; }
  SourceLoc here() const { return {line_, static_cast<uint32_t>(pos_ - line_start_ + 1)}; }
  void skip_space_and_comments();
  void lex_number(Token& token);
  void lex_string(Token& token);
  char lex_escape(SourceLoc string_start);

  std::string_view text_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  uint32_t line_ = 1;
};

}  // namespace vyre::text
