#include "generators/program_edit.h"

#include "spec/ir/builder.h"

namespace vyre::edit {
namespace {

/// The expressions a statement evaluates itself, in order.
std::vector<const ExprPtr*> own_exprs(const Node& n) {
  if (const auto* x = n.as<node::Let>()) return {&x->value};
  if (const auto* x = n.as<node::Assign>()) return {&x->value};
  if (const auto* x = n.as<node::Store>()) return {&x->index, &x->value};
  if (const auto* x = n.as<node::If>()) return {&x->cond};
  if (const auto* x = n.as<node::Loop>()) return {&x->from, &x->to};
  return {};
}

std::vector<ExprPtr*> own_exprs(Node& n) {
  std::vector<ExprPtr*> out;
  for (const ExprPtr* e : own_exprs(static_cast<const Node&>(n)))
    out.push_back(const_cast<ExprPtr*>(e));
  return out;
}

/// Whether the statement slot `slot` of `n` is U32 by position.
bool u32_slot(const Node& n, size_t slot) {
  return n.as<node::Loop>() != nullptr || (n.as<node::Store>() != nullptr && slot == 0);
}

std::vector<Body*> bodies(Node& n) {
  if (auto* x = std::get_if<node::If>(&n.kind)) return {&x->then_body, &x->otherwise};
  if (auto* x = std::get_if<node::Loop>(&n.kind)) return {&x->body};
  if (auto* x = std::get_if<node::Block>(&n.kind)) return {&x->body};
  return {};
}

std::vector<const Body*> bodies(const Node& n) {
  std::vector<const Body*> out;
  for (Body* b : bodies(const_cast<Node&>(n))) out.push_back(b);
  return out;
}

/// Calls f(operand) on each direct operand of `e`, in evaluation order, until
/// f returns true; whether one did. Unlike operands(), copies no pointer: the
/// walks below visit every expression of a program, for each candidate site.
template <typename F>
bool any_operand(const Expr& e, F&& f) {
  if (const auto* x = e.as<expr::Load>()) return f(x->index);
  if (const auto* x = e.as<expr::Binary>()) return f(x->left) || f(x->right);
  if (const auto* x = e.as<expr::Unary>()) return f(x->operand);
  if (const auto* x = e.as<expr::Call>()) {
    for (const ExprPtr& a : x->args) {
      if (f(a)) return true;
    }
    return false;
  }
  if (const auto* x = e.as<expr::Select>()) return f(x->cond) || f(x->if_true) || f(x->if_false);
  if (const auto* x = e.as<expr::Cast>()) return f(x->value);
  if (const auto* x = e.as<expr::Atomic>()) {
    return f(x->index) || (x->expected && f(x->expected)) || f(x->value);
  }
  return false;
}

size_t expr_size(const ExprPtr& e) {
  if (!e) return 0;
  size_t n = 1;
  any_operand(*e, [&](const ExprPtr& o) {
    n += expr_size(o);
    return false;
  });
  return n;
}

/// Visits `e` and the expressions below it in preorder, each as a site, until
/// visit(site) returns true; whether it did.
template <typename Visit>
bool visit_exprs(const ExprPtr& e, bool u32_position, bool first, Visit& visit) {
  if (!e) return false;
  if (visit(ExprSite{e, u32_position, first})) return true;
  const Expr& x = *e;
  // Operators, calls, atomics and indices take U32 operands; Select arms and
  // casts do not constrain them.
  const bool operands_u32 = x.as<expr::Binary>() || x.as<expr::Unary>() || x.as<expr::Call>() ||
                            x.as<expr::Atomic>() || x.as<expr::Load>();
  return any_operand(x,
                     [&](const ExprPtr& o) { return visit_exprs(o, operands_u32, false, visit); });
}

/// Visits every expression of `body` in the numbering's (pre)order.
template <typename Visit>
bool visit_body_exprs(const Body& body, Visit& visit) {
  for (const Node& n : body) {
    const auto exprs = own_exprs(n);
    for (size_t slot = 0; slot < exprs.size(); ++slot) {
      if (visit_exprs(*exprs[slot], u32_slot(n, slot), slot == 0, visit)) return true;
    }
    for (const Body* b : bodies(n)) {
      if (visit_body_exprs(*b, visit)) return true;
    }
  }
  return false;
}

template <typename T>
ExprPtr rebuilt(const Expr& e, T kind) {
  return build::make(std::move(kind), e.loc);
}

/// `e` with the expression numbered `target` replaced; unchanged pointers
/// where nothing below changed.
ExprPtr rewrite_expr(const ExprPtr& e, size_t& counter, size_t target,
                     const std::function<ExprPtr(const ExprPtr&)>& replace) {
  if (!e || counter > target) return e;
  if (counter++ == target) return replace(e);
  const auto sub = [&](const ExprPtr& o) { return rewrite_expr(o, counter, target, replace); };
  return std::visit(
      [&](const auto& k) -> ExprPtr {
        using K = std::decay_t<decltype(k)>;
        K copy = k;
        if constexpr (std::is_same_v<K, expr::Load>) {
          copy.index = sub(k.index);
        } else if constexpr (std::is_same_v<K, expr::Binary>) {
          copy.left = sub(k.left);
          copy.right = sub(k.right);
        } else if constexpr (std::is_same_v<K, expr::Unary>) {
          copy.operand = sub(k.operand);
        } else if constexpr (std::is_same_v<K, expr::Call>) {
          for (ExprPtr& a : copy.args) a = sub(a);
        } else if constexpr (std::is_same_v<K, expr::Select>) {
          copy.cond = sub(k.cond);
          copy.if_true = sub(k.if_true);
          copy.if_false = sub(k.if_false);
        } else if constexpr (std::is_same_v<K, expr::Cast>) {
          copy.value = sub(k.value);
        } else if constexpr (std::is_same_v<K, expr::Atomic>) {
          copy.index = sub(k.index);
          copy.expected = sub(k.expected);
          copy.value = sub(k.value);
        } else {
          return e;
        }
        return rebuilt(*e, std::move(copy));
      },
      e->kind);
}

bool statement_walk(Body& body, size_t& counter, size_t target,
                    const std::function<Body(const Node&)>& replace) {
  for (size_t i = 0; i < body.size(); ++i) {
    if (counter++ == target) {
      Body with = replace(body[i]);
      body.erase(body.begin() + static_cast<std::ptrdiff_t>(i));
      body.insert(body.begin() + static_cast<std::ptrdiff_t>(i), with.begin(), with.end());
      return true;
    }
    for (Body* b : bodies(body[i])) {
      if (statement_walk(*b, counter, target, replace)) return true;
    }
  }
  return false;
}

const Node* statement_find(const Body& body, size_t& counter, size_t target) {
  for (const Node& n : body) {
    if (counter++ == target) return &n;
    for (const Body* b : bodies(n)) {
      if (const Node* found = statement_find(*b, counter, target)) return found;
    }
  }
  return nullptr;
}

bool expression_walk(Body& body, size_t& counter, size_t target,
                     const std::function<ExprPtr(const ExprPtr&)>& replace) {
  for (Node& n : body) {
    for (ExprPtr* e : own_exprs(n)) {
      const size_t size = expr_size(*e);
      if (target < counter + size) {
        *e = rewrite_expr(*e, counter, target, replace);
        return true;
      }
      counter += size;
    }
    for (Body* b : bodies(n)) {
      if (expression_walk(*b, counter, target, replace)) return true;
    }
  }
  return false;
}

}  // namespace

size_t statement_count(const Body& body) {
  size_t n = 0;
  for (const Node& s : body) {
    ++n;
    for (const Body* b : bodies(s)) n += statement_count(*b);
  }
  return n;
}

Body replace_statement(const Body& body, size_t index,
                       const std::function<Body(const Node&)>& replace) {
  Body out = body;
  size_t counter = 0;
  statement_walk(out, counter, index, replace);
  return out;
}

const Node& statement_at(const Body& body, size_t index) {
  size_t counter = 0;
  return *statement_find(body, counter, index);
}

size_t expression_count(const Body& body) {
  size_t n = 0;
  for (const Node& s : body) {
    for (const ExprPtr* e : own_exprs(s)) n += expr_size(*e);
    for (const Body* b : bodies(s)) n += expression_count(*b);
  }
  return n;
}

ExprSite expression_at(const Body& body, size_t index) {
  ExprSite out;
  size_t counter = 0;
  auto visit = [&](const ExprSite& site) {
    if (counter++ != index) return false;
    out = site;
    return true;
  };
  visit_body_exprs(body, visit);
  return out;
}

std::vector<ExprSite> expression_sites(const Body& body) {
  std::vector<ExprSite> out;
  auto visit = [&](const ExprSite& site) {
    out.push_back(site);
    return false;
  };
  visit_body_exprs(body, visit);
  return out;
}

Body replace_expression(const Body& body, size_t index,
                        const std::function<ExprPtr(const ExprPtr&)>& replace) {
  Body out = body;
  size_t counter = 0;
  expression_walk(out, counter, index, replace);
  return out;
}

std::vector<ExprPtr> operands(const Expr& e) {
  if (const auto* x = e.as<expr::Load>()) return {x->index};
  if (const auto* x = e.as<expr::Binary>()) return {x->left, x->right};
  if (const auto* x = e.as<expr::Unary>()) return {x->operand};
  if (const auto* x = e.as<expr::Call>()) return x->args;
  if (const auto* x = e.as<expr::Select>()) return {x->cond, x->if_true, x->if_false};
  if (const auto* x = e.as<expr::Cast>()) return {x->value};
  if (const auto* x = e.as<expr::Atomic>()) {
    if (x->expected) return {x->index, x->expected, x->value};
    return {x->index, x->value};
  }
  return {};
}

ExprPtr with_operands(const ExprPtr& e, const std::vector<ExprPtr>& ops) {
  // Operand k is expression number 1 + the sizes of the operands before it;
  // replacing them first to last keeps that numbering right.
  ExprPtr out = e;
  size_t position = 1;
  for (const ExprPtr& replacement : ops) {
    size_t counter = 0;
    out = rewrite_expr(out, counter, position, [&](const ExprPtr&) { return replacement; });
    position += expr_size(replacement);
  }
  return out;
}

ExprPtr transform(const ExprPtr& e, const std::function<ExprPtr(const ExprPtr&)>& post) {
  if (!e) return e;
  std::vector<ExprPtr> ops = operands(*e);
  for (ExprPtr& o : ops) o = transform(o, post);
  return post(ops.empty() ? e : with_operands(e, ops));
}

Body transform(const Body& body, const std::function<ExprPtr(const ExprPtr&)>& post) {
  Body out = body;
  for (Node& n : out) {
    for (ExprPtr* e : own_exprs(n)) *e = transform(*e, post);
    for (Body* b : bodies(n)) *b = transform(*b, post);
  }
  return out;
}

bool has_atomic(const ExprPtr& e) {
  if (!e) return false;
  if (e->as<expr::Atomic>() != nullptr) return true;
  for (const ExprPtr& o : operands(*e)) {
    if (has_atomic(o)) return true;
  }
  return false;
}

bool has_atomic(const Node& n) {
  for (const ExprPtr* e : own_exprs(n)) {
    if (has_atomic(*e)) return true;
  }
  for (const Body* b : bodies(n)) {
    for (const Node& s : *b) {
      if (has_atomic(s)) return true;
    }
  }
  return false;
}

}  // namespace vyre::edit
