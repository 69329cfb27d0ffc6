// Recursive preorder walks over statements and expressions. Only rule
// families that run after the limit checks use them: V018, V019 and V030 have
// then bounded the depth and size of the tree, so recursion is safe.
#pragma once

#include "spec/validate/operands.h"

namespace vyre {

/// Calls f(expr) on every expression under `root`, root first; null slots skipped.
template <typename F>
void for_each_expr(const ExprPtr& root, F&& f) {
  if (root == nullptr) return;
  f(*root);
  for (size_t i = 0; i < operand_count(*root); ++i) for_each_expr(operand(*root, i), f);
}

/// Calls f(node) on every statement in `body` and its nested bodies, preorder.
template <typename F>
void for_each_node(const Body& body, F&& f) {
  for (const Node& n : body) {
    f(n);
    for (size_t i = 0; i < body_count(n); ++i) for_each_node(vyre::body(n, i), f);
  }
}

/// Calls f(expr) on every expression of every statement in `body`, in program order.
template <typename F>
void for_each_expr(const Body& body, F&& f) {
  for_each_node(body, [&f](const Node& n) {
    for (size_t i = 0; i < operand_count(n); ++i) for_each_expr(operand(n, i), f);
  });
}

}  // namespace vyre
