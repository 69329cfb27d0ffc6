// The recursive-descent parser behind parse_program and parse_case. One
// instance reads one text; its productions are split by idea over
// parse_expression.cc, parse_statement.cc, parse_program.cc and parse_case.cc.
// Every production throws SyntaxError on the first thing it cannot accept.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ir/program.h"
#include "spec/ir/test_case.h"
#include "spec/text/keywords.h"
#include "spec/text/lexer.h"

namespace vyre::text {

/// Reads programs and test cases from one text.
class Parser {
 public:
  explicit Parser(std::string_view text);

  /// program := "program" "{" { declaration } { statement } "}"
  Program program();
  /// case := "case" STRING "{" { case_clause } "}"
  TestCase test_case();
  /// Fails unless the whole text has been read; `after` names what came last.
  void end_of_input(std::string_view after);

 private:
  /// Counts one level of nesting for as long as it lives; throws past
  /// kMaxTextNesting so recursion depth stays bounded.
  class Nesting {
   public:
    Nesting(Parser& parser, SourceLoc loc);
    ~Nesting() { --parser_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& parser_;
  };

  // Token cursor (parser.cc).
  const Token& current() const { return current_; }
  const Token& lookahead();
  Token take();
  bool at(TokenKind kind) const { return current_.kind == kind; }
  bool at_keyword(Keyword k) const;
  Token expect(TokenKind kind, std::string_view context);
  void expect_keyword(Keyword k, std::string_view context);
  [[noreturn]] void fail_expected(std::string_view expected, std::string_view context) const;
  /// Counts one statement or expression starting at `loc`; throws past
  /// kMaxTextNodes so memory stays bounded.
  void count_node(SourceLoc loc);

  // Shared pieces (parser.cc).
  std::string name(std::string_view context);
  uint32_t u32_number(std::string_view context);
  uint32_t u32_value(const Token& token, std::string_view what) const;
  DataType data_type(std::string_view context);

  // Expressions (parse_expression.cc).
  ExprPtr expression(std::string_view context);
  ExprPtr literal();
  ExprPtr var_or_load(std::string name, SourceLoc loc);
  ExprPtr keyword_expression(Keyword k);
  ExprPtr id_expression(Keyword k);
  ExprPtr call_expression();
  ExprPtr atomic_expression(AtomicOp op);
  std::vector<ExprPtr> arguments(std::string_view callee, size_t min, size_t max);

  // Statements (parse_statement.cc).
  Body block(std::string_view owner);
  Node statement();
  Node name_statement();
  Node let_statement();
  Node if_statement();
  Node for_statement();

  // Declarations (parse_program.cc).
  BufferDecl buffer_decl();
  BufferAccess buffer_access(std::string_view context);
  std::array<uint32_t, 3> triple(std::string_view keyword);

  // Test case clauses (parse_case.cc).
  ByteBuffer buffer_data(std::string_view owner);
  ByteBuffer number_list(DataType element, std::string_view owner);
  ByteBuffer hex_bytes();
  Comparison comparison();
  void charge_data(size_t bytes, SourceLoc loc);

  Lexer lexer_;
  Token current_;
  std::optional<Token> lookahead_;
  uint32_t depth_ = 0;
  uint32_t node_count_ = 0;
  size_t data_bytes_ = 0;
};

}  // namespace vyre::text
