// Statements and bodies: let, assignment, store, if/else, for, return, block
// and barrier.
#include "spec/ir/builder.h"
#include "spec/text/parser.h"
#include "spec/text/syntax_error.h"

namespace vyre::text {

Body Parser::block(std::string_view owner) {
  SourceLoc open = expect(TokenKind::LBrace, "to open the body of " + std::string(owner)).loc;
  Nesting nesting(*this, open);
  Body body;
  while (!at(TokenKind::RBrace)) {
    if (at(TokenKind::End)) {
      fail_expected("`}`", "to close the body of " + std::string(owner) + " opened at " +
                               std::to_string(open.line) + ":" + std::to_string(open.col));
    }
    body.push_back(statement());
  }
  take();
  return body;
}

Node Parser::statement() {
  SourceLoc loc = current().loc;
  count_node(loc);
  if (at(TokenKind::LBrace)) return build::stmt(node::Block{block("a block")}, loc);
  if (at(TokenKind::String)) return name_statement();
  if (!at(TokenKind::Ident)) fail_expected("a statement", "");
  std::optional<Keyword> k = keyword_named(current().text);
  if (!k || !is_reserved_word(current().text)) return name_statement();
  switch (*k) {
    case Keyword::Let:
      return let_statement();
    case Keyword::If:
      return if_statement();
    case Keyword::For:
      return for_statement();
    case Keyword::Return:
      take();
      return build::stmt(node::Return{}, loc);
    case Keyword::Barrier:
      take();
      return build::stmt(node::Barrier{}, loc);
    case Keyword::Buffer:
    case Keyword::WorkgroupSize:
      fail_at(loc, "`" + std::string(spelling_of(*k)) +
                       "` after a statement: declarations come first in a program, so move it "
                       "above the first statement");
    default:
      fail_expected("a statement", "");
  }
}

Node Parser::name_statement() {
  SourceLoc loc = current().loc;
  std::string target = name("to start a statement");
  if (at(TokenKind::Equals)) {
    take();
    ExprPtr value = expression("as the assigned value");
    return build::stmt(node::Assign{std::move(target), std::move(value)}, loc);
  }
  if (!at(TokenKind::LBracket)) {
    fail_expected("`=` (an assignment) or `[` (a store)",
                  "after a name at the start of a statement");
  }
  take();
  ExprPtr index = expression("as the index of a store");
  expect(TokenKind::RBracket, "to close the index of a store");
  expect(TokenKind::Equals, "in a store (as in `buf[i] = value`)");
  ExprPtr value = expression("as the stored value");
  return build::stmt(node::Store{std::move(target), std::move(index), std::move(value)}, loc);
}

Node Parser::let_statement() {
  SourceLoc loc = take().loc;
  std::string bound = name("after `let`");
  expect(TokenKind::Equals, "after the name in `let` (as in `let x = 1`)");
  ExprPtr value = expression("as the value of `let`");
  return build::stmt(node::Let{std::move(bound), std::move(value)}, loc);
}

Node Parser::if_statement() {
  SourceLoc loc = take().loc;
  ExprPtr cond = expression("as the condition of `if`");
  Body then_body = block("`if`");
  Body otherwise;
  if (at_keyword(Keyword::Else)) {
    take();
    otherwise = block("`else`");
  }
  return build::stmt(node::If{std::move(cond), std::move(then_body), std::move(otherwise)}, loc);
}

Node Parser::for_statement() {
  SourceLoc loc = take().loc;
  std::string var = name("after `for` (as in `for j in 0 .. 4 { ... }`)");
  expect_keyword(Keyword::In, "after the loop variable (as in `for j in 0 .. 4 { ... }`)");
  ExprPtr from = expression("as the start of the loop range");
  expect(TokenKind::DotDot, "between the loop bounds (as in `for j in 0 .. 4 { ... }`)");
  ExprPtr to = expression("as the end of the loop range");
  Body body = block("`for`");
  return build::stmt(node::Loop{std::move(var), std::move(from), std::move(to), std::move(body)},
                     loc);
}

}  // namespace vyre::text
