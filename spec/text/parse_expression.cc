// Expressions: literals, names, loads, ids, operators, select, cast, call and
// atomics. Every expression is a prefix form, so no precedence is involved.
#include <limits>

#include "spec/ir/builder.h"
#include "spec/text/names.h"
#include "spec/text/parser.h"
#include "spec/text/syntax_error.h"

namespace vyre::text {
namespace {

using build::make;

/// "`add` takes 2 arguments" style count wording.
std::string argument_count(size_t min, size_t max) {
  auto count = [](size_t n) { return std::to_string(n) + (n == 1 ? " argument" : " arguments"); };
  if (min == max) return count(min);
  return std::to_string(min) + " or " + count(max);
}

}  // namespace

ExprPtr Parser::expression(std::string_view context) {
  Nesting nesting(*this, current().loc);
  SourceLoc loc = current().loc;
  count_node(loc);
  switch (current().kind) {
    case TokenKind::Int:
      return literal();
    case TokenKind::String: {
      std::string quoted = take().value;
      return var_or_load(std::move(quoted), loc);
    }
    case TokenKind::Ident:
      break;
    default:
      fail_expected("an expression", context);
  }
  std::string_view word = current().text;
  if (auto k = keyword_named(word); k && is_reserved_word(word)) return keyword_expression(*k);
  if (auto op = bin_op_named(word)) {
    take();
    auto args = arguments(name_of(*op), 2, 2);
    return make(expr::Binary{*op, args[0], args[1]}, loc);
  }
  if (auto op = un_op_named(word)) {
    take();
    auto args = arguments(name_of(*op), 1, 1);
    return make(expr::Unary{*op, args[0]}, loc);
  }
  if (auto op = atomic_op_named(word)) return atomic_expression(*op);
  std::string bare(take().text);
  return var_or_load(std::move(bare), loc);
}

ExprPtr Parser::literal() {
  Token token = take();
  std::string shown(token.text.substr(0, 40));
  if (token.i32_suffix) {
    uint64_t limit = uint64_t{std::numeric_limits<int32_t>::max()} + (token.negative ? 1 : 0);
    if (token.too_big || token.magnitude > limit) {
      fail_at(token.loc,
              "i32 literal `" + shown +
                  "` is out of range; i32 literals run from -2147483648i to 2147483647i");
    }
    int64_t value = token.negative ? -static_cast<int64_t>(token.magnitude)
                                   : static_cast<int64_t>(token.magnitude);
    return make(expr::LitI32{static_cast<int32_t>(value)}, token.loc);
  }
  if (token.negative) {
    fail_at(token.loc, "negative literal `" + shown +
                           "` needs the `i` suffix: only i32 literals can be negative, as in `" +
                           shown + "i`");
  }
  if (token.too_big || token.magnitude > std::numeric_limits<uint32_t>::max()) {
    fail_at(token.loc, "u32 literal `" + shown +
                           "` is out of range; u32 literals run from 0 to 4294967295 (0xFFFFFFFF)");
  }
  return make(expr::LitU32{static_cast<uint32_t>(token.magnitude)}, token.loc);
}

ExprPtr Parser::var_or_load(std::string name, SourceLoc loc) {
  if (!at(TokenKind::LBracket)) return make(expr::Var{std::move(name)}, loc);
  take();
  ExprPtr index = expression("as the index of a load");
  expect(TokenKind::RBracket, "to close the index of a load");
  return make(expr::Load{std::move(name), std::move(index)}, loc);
}

ExprPtr Parser::keyword_expression(Keyword k) {
  SourceLoc loc = current().loc;
  switch (k) {
    case Keyword::True:
    case Keyword::False:
      take();
      return make(expr::LitBool{k == Keyword::True}, loc);
    case Keyword::InvocationId:
    case Keyword::WorkgroupId:
    case Keyword::LocalId:
      return id_expression(k);
    case Keyword::BufLen: {
      take();
      expect(TokenKind::LParen, "after `buflen`");
      std::string buffer = name("as the buffer of `buflen`");
      expect(TokenKind::RParen, "to close `buflen(...)`");
      return make(expr::BufLen{std::move(buffer)}, loc);
    }
    case Keyword::Select: {
      take();
      auto args = arguments("select", 3, 3);
      return make(expr::Select{args[0], args[1], args[2]}, loc);
    }
    case Keyword::Cast: {
      take();
      expect(TokenKind::Less, "after `cast` (as in `cast<u64>(x)`)");
      DataType target = data_type("as the target of `cast`");
      expect(TokenKind::Greater, "to close the target type of `cast`");
      auto args = arguments("cast", 1, 1);
      return make(expr::Cast{target, args[0]}, loc);
    }
    case Keyword::Call:
      return call_expression();
    default:
      fail_at(loc, "`" + std::string(spelling_of(k)) +
                       "` is a reserved word and cannot start an expression; to use it as a "
                       "name, quote it: \"" +
                       std::string(spelling_of(k)) + "\"");
  }
}

ExprPtr Parser::id_expression(Keyword k) {
  SourceLoc loc = current().loc;
  std::string context = "after `" + std::string(spelling_of(k)) + "`";
  take();
  expect(TokenKind::Dot, context + " (as in `" + std::string(spelling_of(k)) + ".x`)");
  uint32_t axis = 0;
  if (at(TokenKind::Ident) && current().text.size() == 1 && current().text[0] >= 'x' &&
      current().text[0] <= 'z') {
    axis = static_cast<uint32_t>(take().text[0] - 'x');
  } else if (at(TokenKind::Int)) {
    axis = u32_number("as an axis");
  } else {
    fail_expected("an axis (x, y, z or a number)", "after `" + std::string(spelling_of(k)) + ".`");
  }
  if (k == Keyword::InvocationId) return make(expr::InvocationId{axis}, loc);
  if (k == Keyword::WorkgroupId) return make(expr::WorkgroupId{axis}, loc);
  return make(expr::LocalId{axis}, loc);
}

ExprPtr Parser::call_expression() {
  SourceLoc loc = take().loc;
  std::string op_id;
  if (at(TokenKind::String)) {
    op_id = take().value;
  } else {
    op_id = std::string(expect(TokenKind::Ident, "after `call` (the op id)").text);
    while (at(TokenKind::Dot)) {
      take();
      op_id += '.';
      op_id += expect(TokenKind::Ident, "after `.` in an op id").text;
    }
  }
  auto args = arguments(op_id, 0, std::numeric_limits<size_t>::max());
  return make(expr::Call{std::move(op_id), std::move(args)}, loc);
}

ExprPtr Parser::atomic_expression(AtomicOp op) {
  SourceLoc loc = take().loc;
  std::string_view spelled = name_of(op);
  auto args = arguments(spelled, 2, 3);
  const auto* element = args[0]->as<expr::Load>();
  if (element == nullptr) {
    fail_at(args[0]->loc, "the first argument of `" + std::string(spelled) +
                              "` must be a buffer element such as `buf[i]`");
  }
  ExprPtr expected = args.size() == 3 ? args[1] : nullptr;
  return make(expr::Atomic{op, element->buffer, element->index, std::move(expected), args.back()},
              loc);
}

std::vector<ExprPtr> Parser::arguments(std::string_view callee, size_t min, size_t max) {
  // Spelled as the text format writes it, so a quoted op id holding a newline
  // or a control byte keeps the message on one printable line.
  std::string quoted = "`";
  append_op_id(quoted, callee.substr(0, 40));
  quoted += "`";
  SourceLoc open = expect(TokenKind::LParen, "after " + quoted + " (its argument list)").loc;
  std::vector<ExprPtr> args;
  if (at(TokenKind::RParen)) {
    take();
  } else {
    std::string context = "as an argument of " + quoted;
    while (true) {
      args.push_back(expression(context));
      if (at(TokenKind::Comma)) {
        take();
        continue;
      }
      if (!at(TokenKind::RParen)) {
        fail_expected("`,` or `)`", "to close the argument list of " + quoted);
      }
      take();
      break;
    }
  }
  if (args.size() < min || args.size() > max) {
    fail_at(open, quoted + " takes " + argument_count(min, max) + ", found " +
                      std::to_string(args.size()));
  }
  return args;
}

}  // namespace vyre::text
