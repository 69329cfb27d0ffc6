// The expression operand slots and child bodies of every Expr and Node kind,
// in evaluation order, so that each rule family walks the tree the same way
// without a switch of its own.
#pragma once

#include <cstddef>
#include <string_view>

#include "spec/ir/node.h"

namespace vyre {

/// Number of operand slots of `e` (a Call has one per argument).
size_t operand_count(const Expr& e);
/// Operand slot `i` of `e`; null when absent (CompareExchange's `expected` on
/// other atomics, or a malformed program: V040).
const ExprPtr& operand(const Expr& e, size_t i);
/// Name of operand slot `i` of `e` ("index", "value", "argument", ...).
std::string_view operand_name(const Expr& e, size_t i);
/// True for slots that may legitimately be null (Atomic's `expected`).
bool operand_is_optional(const Expr& e, size_t i);

/// Number of expression operand slots of statement `n`.
size_t operand_count(const Node& n);
/// Expression operand slot `i` of statement `n`; null in a malformed program.
const ExprPtr& operand(const Node& n, size_t i);
/// Name of operand slot `i` of `n` ("cond", "from", ...).
std::string_view operand_name(const Node& n, size_t i);

/// Number of child bodies of `n` (If: 2, Loop and Block: 1, others: 0).
size_t body_count(const Node& n);
/// Child body `i` of `n`.
const Body& body(const Node& n, size_t i);

/// Short name of the kind of `e` ("load", "binop", ...), for messages.
std::string_view kind_name(const Expr& e);
/// Short name of the kind of `n` ("store", "loop", ...), for messages.
std::string_view kind_name(const Node& n);

}  // namespace vyre
