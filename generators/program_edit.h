// Addressed edits of a program, shared by the reducer and the metamorphic
// rewrites: statements and expressions are numbered in preorder (entry body
// first to last, a statement before its bodies, an expression before its
// operands in evaluation order), and an edit rebuilds only the path to the
// addressed node (expressions are shared and immutable).
#pragma once

#include <cstddef>
#include <functional>

#include "spec/ir/program.h"

namespace vyre::edit {

/// Number of statements, nested ones included.
size_t statement_count(const Body& body);
/// `body` with the statement at preorder index `index` replaced by what
/// `replace` returns (no statement, several, or a changed one).
Body replace_statement(const Body& body, size_t index,
                       const std::function<Body(const Node&)>& replace);
/// The statement at preorder index `index` (index < statement_count).
const Node& statement_at(const Body& body, size_t index);

/// One expression slot: the expression, whether the IR makes it U32 by its
/// position (an operator, call or atomic operand, an index or a loop bound),
/// and whether it is the first expression its statement evaluates.
struct ExprSite {
  ExprPtr expr;
  bool u32_position = false;
  bool evaluated_first = false;
};

/// Number of expressions, nested ones included.
size_t expression_count(const Body& body);
/// The expression at preorder index `index`, with its position facts.
ExprSite expression_at(const Body& body, size_t index);
/// Every expression, indexed as expression_at numbers them, in one walk: a
/// caller that looks at all of them is linear, not quadratic, in their count.
std::vector<ExprSite> expression_sites(const Body& body);
/// `body` with the expression at preorder index `index` replaced by `replace(old)`.
Body replace_expression(const Body& body, size_t index,
                        const std::function<ExprPtr(const ExprPtr&)>& replace);

/// The direct operands of `e`, in evaluation order.
std::vector<ExprPtr> operands(const Expr& e);
/// `e` with its direct operands replaced by `ops` (same count and order as operands()).
ExprPtr with_operands(const ExprPtr& e, const std::vector<ExprPtr>& ops);
/// `e` rebuilt bottom-up: the operands first, then `post` applied to the node.
ExprPtr transform(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& post);
/// Every expression of `body`, nested bodies included, transformed.
Body transform(const Body& body, const std::function<ExprPtr(const ExprPtr&)>& post);
/// True when `e` or an operand is an Atomic (the only side effect).
bool has_atomic(const ExprPtr& e);
/// True when a statement, or a statement nested in it, holds an Atomic.
bool has_atomic(const Node& n);

}  // namespace vyre::edit
