#include "spec/text/lexer.h"

#include <array>
#include <string>

#include "spec/text/names.h"
#include "spec/text/syntax_error.h"

namespace vyre::text {
namespace {

struct Punctuation {
  char c;
  TokenKind kind;
};
constexpr std::array<Punctuation, 12> kPunctuation = {{
    {'{', TokenKind::LBrace},
    {'}', TokenKind::RBrace},
    {'(', TokenKind::LParen},
    {')', TokenKind::RParen},
    {'[', TokenKind::LBracket},
    {']', TokenKind::RBracket},
    {',', TokenKind::Comma},
    {':', TokenKind::Colon},
    {'=', TokenKind::Equals},
    {'@', TokenKind::At},
    {'<', TokenKind::Less},
    {'>', TokenKind::Greater},
}};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string byte_text(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7F) return std::string("`") + c + "`";
  constexpr char kHex[] = "0123456789ABCDEF";
  return std::string("byte 0x") + kHex[byte >> 4] + kHex[byte & 0xF];
}

}  // namespace

Token Lexer::next() {
  skip_space_and_comments();
  Token token;
  token.loc = here();
  size_t start = pos_;
  if (pos_ >= text_.size()) {
    token.kind = TokenKind::End;
    return token;
  }
  char c = text_[pos_];
  if (is_ident_start(c)) {
    while (is_ident_char(at(pos_))) ++pos_;
    token.kind = TokenKind::Ident;
  } else if (is_digit(c) || (c == '-' && is_digit(at(pos_ + 1)))) {
    lex_number(token);
  } else if (c == '"') {
    lex_string(token);
  } else if (c == '.') {
    bool pair = at(pos_ + 1) == '.';
    pos_ += pair ? 2 : 1;
    token.kind = pair ? TokenKind::DotDot : TokenKind::Dot;
  } else {
    for (const Punctuation& p : kPunctuation) {
      if (p.c == c) token.kind = p.kind;
    }
    if (token.kind == TokenKind::End) {
      if (c == '-') {
        fail_at(token.loc,
                "unexpected `-`: only number literals take a sign, written right before the digits "
                "(`-3i`)");
      }
      fail_at(token.loc, "unexpected " + byte_text(c) + "; it starts no token of the text format");
    }
    ++pos_;
  }
  token.text = text_.substr(start, pos_ - start);
  return token;
}

void Lexer::skip_space_and_comments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == '\n') {
      ++pos_;
      ++line_;
      line_start_ = pos_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (c == '#') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

void Lexer::lex_number(Token& token) {
  token.kind = TokenKind::Int;
  size_t start = pos_;
  if (text_[pos_] == '-') {
    token.negative = true;
    ++pos_;
  }
  uint64_t base = 10;
  if (at(pos_) == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X')) {
    token.hex = true;
    base = 16;
    pos_ += 2;
  }
  size_t digits = 0;
  while (true) {
    int d = token.hex ? hex_value(at(pos_)) : (is_digit(at(pos_)) ? at(pos_) - '0' : -1);
    if (d < 0) break;
    if (token.magnitude > (UINT64_MAX - static_cast<uint64_t>(d)) / base) {
      token.too_big = true;
      token.magnitude = UINT64_MAX;
    } else if (!token.too_big) {
      token.magnitude = token.magnitude * base + static_cast<uint64_t>(d);
    }
    ++pos_;
    ++digits;
  }
  size_t suffix_start = pos_;
  while (is_ident_char(at(pos_))) ++pos_;
  std::string_view suffix = text_.substr(suffix_start, pos_ - suffix_start);
  std::string_view whole = text_.substr(start, pos_ - start);
  if (digits == 0 || (!suffix.empty() && suffix != "i")) {
    fail_at(token.loc, "malformed number `" + std::string(whole.substr(0, 40)) +
                           "`: write decimal digits or 0x and hex digits, with an `i` suffix "
                           "for an i32");
  }
  token.i32_suffix = suffix == "i";
}

void Lexer::lex_string(Token& token) {
  token.kind = TokenKind::String;
  ++pos_;
  while (true) {
    if (pos_ >= text_.size() || text_[pos_] == '\n') {
      fail_at(token.loc,
              "unterminated string: close it with `\"` on the same line (write a newline as \\n)");
    }
    char c = text_[pos_];
    auto byte = static_cast<unsigned char>(c);
    if (c == '"') {
      ++pos_;
      return;
    }
    if (c == '\\') {
      token.value += lex_escape(token.loc);
      continue;
    }
    if (byte < 0x20 || byte == 0x7F) {
      fail_at(here(), "control " + byte_text(c) + " inside a string; write it as an \\x escape");
    }
    token.value += c;
    ++pos_;
  }
}

char Lexer::lex_escape(SourceLoc string_start) {
  SourceLoc loc = here();
  bool at_end = pos_ + 1 >= text_.size();
  char kind = at(pos_ + 1);
  pos_ += 2;
  switch (kind) {
    case '\\':
    case '"':
      return kind;
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'x': {
      int hi = hex_value(at(pos_));
      int lo = hex_value(at(pos_ + 1));
      if (hi < 0 || lo < 0) {
        fail_at(loc, "`\\x` in a string must be followed by two hex digits");
      }
      pos_ += 2;
      return static_cast<char>(hi * 16 + lo);
    }
    default:
      if (at_end || kind == '\n') {
        fail_at(string_start, "unterminated string: it ends in a lone `\\`");
      }
      fail_at(loc, "unknown escape in a string; use \\\\, \\\", \\n, \\t or \\xHH");
  }
}

}  // namespace vyre::text
