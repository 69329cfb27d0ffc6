// One lexical token of the text format.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "spec/support/source_loc.h"

namespace vyre::text {

/// What a token is; punctuation kinds are named after their character.
enum class TokenKind : unsigned char {
  End,
  Ident,
  Int,
  String,
  LBrace,
  RBrace,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Equals,
  Dot,
  DotDot,
  At,
  Less,
  Greater,
};

/// How a kind is written, for "expected `)`" messages.
std::string_view spelling_of(TokenKind kind);

/// A token and where it starts.
struct Token {
  TokenKind kind = TokenKind::End;
  SourceLoc loc;
  /// The exact source text of the token.
  std::string_view text;
  /// Int: magnitude (saturated when `too_big`), sign, radix and `i` suffix.
  uint64_t magnitude = 0;
  bool negative = false;
  bool too_big = false;
  bool hex = false;
  bool i32_suffix = false;
  /// String: the decoded bytes.
  std::string value;
};

/// "`)`", "the string \"ab\"" or "end of input": a token as error messages show it.
std::string describe(const Token& token);

}  // namespace vyre::text
