// The parser's token cursor and the small pieces every production shares.
#include "spec/text/parser.h"

#include <limits>
#include <span>

#include "spec/text/syntax_error.h"
#include "spec/text/text_format.h"

namespace vyre::text {
namespace {

/// "u32, i32, ..." for "expected one of" messages.
template <typename E>
std::string spelled_list(std::span<const E> values) {
  std::string list;
  for (E v : values) {
    if (!list.empty()) list += ", ";
    list += name_of(v);
  }
  return list;
}

}  // namespace

Parser::Nesting::Nesting(Parser& parser, SourceLoc loc) : parser_(parser) {
  if (++parser_.depth_ > kMaxTextNesting) {
    fail_at(loc, "nesting deeper than " + std::to_string(kMaxTextNesting) +
                     " levels (statement bodies plus expressions), the text format's limit; "
                     "flatten the program, for example with `let` temporaries");
  }
}

void Parser::count_node(SourceLoc loc) {
  if (++node_count_ > kMaxTextNodes) {
    fail_at(loc, "more than " + std::to_string(kMaxTextNodes) +
                     " statements and expressions, the text format's limit (ten times V019's "
                     "100000); split the program into smaller kernels");
  }
}

Parser::Parser(std::string_view text) : lexer_(text), current_(lexer_.next()) {}

void Parser::end_of_input(std::string_view after) {
  if (!at(TokenKind::End)) fail_expected("end of input", after);
}

const Token& Parser::lookahead() {
  if (!lookahead_) lookahead_ = lexer_.next();
  return *lookahead_;
}

Token Parser::take() {
  Token taken = std::move(current_);
  if (lookahead_) {
    current_ = std::move(*lookahead_);
    lookahead_.reset();
  } else {
    current_ = lexer_.next();
  }
  return taken;
}

bool Parser::at_keyword(Keyword k) const {
  return at(TokenKind::Ident) && current_.text == spelling_of(k);
}

Token Parser::expect(TokenKind kind, std::string_view context) {
  if (!at(kind)) {
    std::string expected(spelling_of(kind));
    if (kind != TokenKind::Ident && kind != TokenKind::Int && kind != TokenKind::String) {
      expected = "`" + expected + "`";
    }
    fail_expected(expected, context);
  }
  return take();
}

void Parser::expect_keyword(Keyword k, std::string_view context) {
  if (!at_keyword(k)) fail_expected("`" + std::string(spelling_of(k)) + "`", context);
  take();
}

void Parser::fail_expected(std::string_view expected, std::string_view context) const {
  std::string message = "expected ";
  message += expected;
  if (!context.empty()) {
    message += ' ';
    message += context;
  }
  message += ", found ";
  message += describe(current_);
  fail_at(current_.loc, std::move(message));
}

std::string Parser::name(std::string_view context) {
  if (at(TokenKind::String)) return take().value;
  if (!at(TokenKind::Ident)) fail_expected("a name", context);
  if (is_reserved_word(current_.text)) {
    fail_at(current_.loc, "`" + std::string(current_.text) +
                              "` is a reserved word; to use it as a name, quote it: \"" +
                              std::string(current_.text) + "\"");
  }
  return std::string(take().text);
}

uint32_t Parser::u32_number(std::string_view context) {
  if (!at(TokenKind::Int)) fail_expected("a number", context);
  Token token = take();
  return u32_value(token, context);
}

uint32_t Parser::u32_value(const Token& token, std::string_view what) const {
  if (token.negative || token.i32_suffix || token.too_big ||
      token.magnitude > std::numeric_limits<uint32_t>::max()) {
    fail_at(token.loc, "`" + std::string(token.text.substr(0, 40)) + "` " + std::string(what) +
                           " must be a u32: 0 to 4294967295 (0xFFFFFFFF), with no sign or suffix");
  }
  return static_cast<uint32_t>(token.magnitude);
}

DataType Parser::data_type(std::string_view context) {
  if (!at(TokenKind::Ident)) fail_expected("a type name", context);
  if (auto type = data_type_named(current_.text)) {
    take();
    return *type;
  }
  fail_at(current_.loc, "unknown type `" + std::string(current_.text.substr(0, 40)) + "` " +
                            std::string(context) + "; the types are " +
                            spelled_list(all_data_types()));
}

BufferAccess Parser::buffer_access(std::string_view context) {
  if (!at(TokenKind::Ident)) fail_expected("a buffer access", context);
  if (auto access = access_named(current_.text)) {
    take();
    return *access;
  }
  fail_at(current_.loc, "unknown buffer access `" + std::string(current_.text.substr(0, 40)) +
                            "` " + std::string(context) + "; the accesses are " +
                            spelled_list(all_accesses()));
}

}  // namespace vyre::text
