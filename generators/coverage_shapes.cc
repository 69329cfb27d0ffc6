// The whole-program part of the coverage record (coverage.h): size classes,
// statement kinds nested in each other (feature pairs), and the structural
// signatures of communication, path tracing and optimiser-rule shapes. Each
// signature is read from the program alone, so a program from anywhere (a
// hand-written case, another generator) is measured the same way.
#include "generators/coverage_shapes.h"

#include <algorithm>
#include <functional>
#include <set>

#include "generators/program_edit.h"

namespace vyre::coverage_detail {
namespace {

/// The statement kind a feature pair names ("let", "if", ...; "atomic" for
/// a statement whose own expressions hold an Atomic).
std::vector<std::string> kinds_of(const Node& n) {
  std::vector<std::string> out;
  if (n.as<node::Let>()) out.push_back("let");
  if (n.as<node::Assign>()) out.push_back("assign");
  if (n.as<node::Store>()) out.push_back("store");
  if (n.as<node::If>()) out.push_back("if");
  if (n.as<node::Loop>()) out.push_back("loop");
  if (n.as<node::Block>()) out.push_back("block");
  if (n.as<node::Return>()) out.push_back("return");
  if (n.as<node::Barrier>()) out.push_back("barrier");
  bool atomic = false;
  const auto visit = [&](const ExprPtr& e) { atomic |= e && edit::has_atomic(e); };
  if (const auto* x = n.as<node::Let>()) visit(x->value);
  if (const auto* x = n.as<node::Assign>()) visit(x->value);
  if (const auto* x = n.as<node::Store>()) {
    visit(x->index);
    visit(x->value);
  }
  if (const auto* x = n.as<node::If>()) visit(x->cond);
  if (atomic) out.push_back("atomic");
  return out;
}

/// Calls `f` on every expression node of `e`.
void each_expr(const ExprPtr& e, const std::function<void(const Expr&)>& f) {
  if (!e) return;
  f(*e);
  for (const ExprPtr& child : edit::operands(*e)) each_expr(child, f);
}

/// Calls `f` on every expression node of a statement's own expressions.
void each_own_expr(const Node& n, const std::function<void(const Expr&)>& f) {
  if (const auto* x = n.as<node::Let>()) each_expr(x->value, f);
  if (const auto* x = n.as<node::Assign>()) each_expr(x->value, f);
  if (const auto* x = n.as<node::Store>()) {
    each_expr(x->index, f);
    each_expr(x->value, f);
  }
  if (const auto* x = n.as<node::If>()) each_expr(x->cond, f);
  if (const auto* x = n.as<node::Loop>()) {
    each_expr(x->from, f);
    each_expr(x->to, f);
  }
}

/// Calls `f` on every statement of `body`, nested ones included.
void each_stmt(const Body& body, const std::function<void(const Node&)>& f) {
  for (const Node& n : body) {
    f(n);
    if (const auto* x = n.as<node::If>()) {
      each_stmt(x->then_body, f);
      each_stmt(x->otherwise, f);
    } else if (const auto* x = n.as<node::Loop>()) {
      each_stmt(x->body, f);
    } else if (const auto* x = n.as<node::Block>()) {
      each_stmt(x->body, f);
    }
  }
}

/// What a body does to memory, nested statements included.
struct BodyEffects {
  bool barrier = false;
  std::set<std::string> loads, stores, atomics;
};

BodyEffects effects_of(const Body& body) {
  BodyEffects fx;
  each_stmt(body, [&](const Node& n) {
    fx.barrier |= n.as<node::Barrier>() != nullptr;
    if (const auto* x = n.as<node::Store>()) fx.stores.insert(x->buffer);
    each_own_expr(n, [&](const Expr& e) {
      if (const auto* l = e.as<expr::Load>()) fx.loads.insert(l->buffer);
      if (const auto* a = e.as<expr::Atomic>()) fx.atomics.insert(a->buffer);
    });
  });
  return fx;
}

class ShapeRecorder {
 public:
  ShapeRecorder(const Program& p, const std::function<void(std::string)>& hit)
      : program_(p), hit_(hit) {}

  void run() {
    sizes();
    pairs(program_.entry, "");
    each_stmt(program_.entry, [&](const Node& n) { statement(n); });
    atomic_reads_after_barrier(program_.entry);
  }

 private:
  void sizes() {
    const size_t statements = edit::statement_count(program_.entry);
    hit_(statements <= 32    ? "size.statements.le32"
         : statements <= 100 ? "size.statements.le100"
                             : "size.statements.gt100");
    const int nest = nesting(program_.entry);
    if (nest >= 1) hit_("size.nesting." + std::to_string(std::min(nest, 6)));
    int depth = 0;
    each_stmt(program_.entry, [&](const Node& n) {
      const auto measure = [&](const ExprPtr& e) { depth = std::max(depth, expr_depth(e)); };
      if (const auto* x = n.as<node::Let>()) measure(x->value);
      if (const auto* x = n.as<node::Assign>()) measure(x->value);
      if (const auto* x = n.as<node::Store>()) measure(x->value);
      if (const auto* x = n.as<node::If>()) measure(x->cond);
    });
    hit_(depth <= 4   ? "size.expr_depth.le4"
         : depth <= 7 ? "size.expr_depth.le7"
                      : "size.expr_depth.ge8");
    const auto& w = program_.workgroup_size;
    const uint64_t group = uint64_t{w[0]} * w[1] * w[2];
    hit_(group == 1     ? "size.workgroup.1"
         : group <= 16  ? "size.workgroup.le16"
         : group <= 128 ? "size.workgroup.le128"
                        : "size.workgroup.gt128");
    if (group > 16 && group % 2 == 1) hit_("size.workgroup.odd_gt16");
  }

  static int nesting(const Body& body) {
    int deepest = 0;
    for (const Node& n : body) {
      if (const auto* x = n.as<node::If>()) {
        deepest = std::max(deepest, 1 + std::max(nesting(x->then_body), nesting(x->otherwise)));
      } else if (const auto* x = n.as<node::Loop>()) {
        deepest = std::max(deepest, 1 + nesting(x->body));
      } else if (const auto* x = n.as<node::Block>()) {
        deepest = std::max(deepest, 1 + nesting(x->body));
      }
    }
    return deepest;
  }

  static int expr_depth(const ExprPtr& e) {
    if (!e) return 0;
    int deepest = 0;
    for (const ExprPtr& child : edit::operands(*e)) deepest = std::max(deepest, expr_depth(child));
    return 1 + deepest;
  }

  /// "pair.<outer>.<inner>" for each statement kind directly in an If, Loop
  /// or Block body.
  void pairs(const Body& body, const std::string& outer) {
    for (const Node& n : body) {
      if (!outer.empty()) {
        for (const std::string& inner : kinds_of(n)) hit_("pair." + outer + "." + inner);
      }
      if (const auto* x = n.as<node::If>()) {
        pairs(x->then_body, "if");
        pairs(x->otherwise, "if");
      } else if (const auto* x = n.as<node::Loop>()) {
        pairs(x->body, "loop");
      } else if (const auto* x = n.as<node::Block>()) {
        pairs(x->body, "block");
      }
    }
  }

  void statement(const Node& n) {
    if (const auto* x = n.as<node::Loop>()) {
      // Phases in a loop: a barrier, and a buffer the body both stores and loads.
      const BodyEffects fx = effects_of(x->body);
      if (fx.barrier) {
        for (const std::string& b : fx.stores) {
          const BufferDecl* d = program_.buffer(b);
          if (d == nullptr || !fx.loads.contains(b)) continue;
          hit_(d->access == BufferAccess::Workgroup ? "comm.loop_exchange.workgroup"
                                                    : "comm.loop_exchange.storage");
        }
      }
      cas_retry(x->body);
    }
    if (const auto* x = n.as<node::If>()) {
      bool atomic_cond = false;
      each_expr(x->cond, [&](const Expr& e) { atomic_cond |= e.as<expr::Atomic>() != nullptr; });
      if (atomic_cond && !effects_of(x->then_body).stores.empty()) {
        hit_("comm.atomic_guarded_section");
      }
      branch_records(*x);
      opaque_guard(*x);
    }
    each_own_expr(n, [&](const Expr& e) { rule_shape(e); });
  }

  /// A Let of a compare-exchange whose name an If condition of the same loop reads.
  void cas_retry(const Body& body) {
    std::set<std::string> exchanged;
    each_stmt(body, [&](const Node& n) {
      const auto* let = n.as<node::Let>();
      if (let == nullptr || !let->value) return;
      const auto* a = let->value->as<expr::Atomic>();
      if (a != nullptr && a->op == AtomicOp::CompareExchange) exchanged.insert(let->name);
    });
    if (exchanged.empty()) return;
    each_stmt(body, [&](const Node& n) {
      const auto* x = n.as<node::If>();
      if (x == nullptr) return;
      each_expr(x->cond, [&](const Expr& e) {
        const auto* v = e.as<expr::Var>();
        if (v != nullptr && exchanged.contains(v->name)) hit_("comm.cas_retry_loop");
      });
    });
  }

  /// An atomic on a buffer, then a barrier, then a load of that buffer, in
  /// one body (an atomic reduction read after the barrier).
  void atomic_reads_after_barrier(const Body& body) {
    std::set<std::string> atomics, fenced;
    for (const Node& n : body) {
      if (n.as<node::Barrier>() != nullptr) fenced.insert(atomics.begin(), atomics.end());
      each_own_expr(n, [&](const Expr& e) {
        if (const auto* l = e.as<expr::Load>(); l != nullptr && fenced.contains(l->buffer)) {
          hit_("comm.atomic_read_after_barrier");
        }
        if (const auto* a = e.as<expr::Atomic>()) atomics.insert(a->buffer);
      });
    }
  }

  /// Both arms (or the only one) open with a store of a literal id into the
  /// same buffer: a path oracle's block records.
  void branch_records(const node::If& x) {
    const auto record = [](const Body& b) -> const node::Store* {
      if (b.empty()) return nullptr;
      const auto* s = b.front().as<node::Store>();
      return s != nullptr && s->value && s->value->as<expr::LitU32>() ? s : nullptr;
    };
    const node::Store* then_record = record(x.then_body);
    const node::Store* else_record = record(x.otherwise);
    if (then_record != nullptr && else_record != nullptr &&
        then_record->buffer == else_record->buffer) {
      hit_("shape.branch_records");
    }
  }

  /// A condition comparing a uniform buffer's word at a literal index with a
  /// literal: decided only at run time.
  void opaque_guard(const node::If& x) {
    const auto* b = x.cond ? x.cond->as<expr::Binary>() : nullptr;
    if (b == nullptr || (b->op != BinOp::Eq && b->op != BinOp::Ne)) return;
    const auto* l = b->left->as<expr::Load>();
    if (l == nullptr || !b->right->as<expr::LitU32>() || !l->index->as<expr::LitU32>()) return;
    const BufferDecl* d = program_.buffer(l->buffer);
    if (d != nullptr && d->access == BufferAccess::Uniform) hit_("shape.opaque_guard");
  }

  static bool power_of_two_literal(const ExprPtr& e) {
    const auto* lit = e ? e->as<expr::LitU32>() : nullptr;
    return lit != nullptr && lit->value != 0 && (lit->value & (lit->value - 1)) == 0;
  }

  /// Optimiser-rule shapes: division or modulo by a power of two, a shift
  /// pair by one amount, a cast of a cast, a select of a comparison of its arms.
  void rule_shape(const Expr& e) {
    if (const auto* b = e.as<expr::Binary>()) {
      if ((b->op == BinOp::Div || b->op == BinOp::Mod) && power_of_two_literal(b->right)) {
        hit_("shape.div_mod_power_of_two");
      }
      const auto* inner = b->left->as<expr::Binary>();
      if ((b->op == BinOp::Shl || b->op == BinOp::Shr) && inner != nullptr &&
          (inner->op == BinOp::Shl || inner->op == BinOp::Shr) && inner->op != b->op &&
          equal(inner->right, b->right)) {
        hit_("shape.shift_pair");
      }
    }
    if (const auto* c = e.as<expr::Cast>(); c != nullptr && c->value->as<expr::Cast>()) {
      hit_("shape.cast_of_cast");
    }
    if (const auto* s = e.as<expr::Select>()) {
      const auto* cmp = s->cond->as<expr::Binary>();
      if (cmp != nullptr && (cmp->op == BinOp::Lt || cmp->op == BinOp::Gt) &&
          ((equal(cmp->left, s->if_true) && equal(cmp->right, s->if_false)) ||
           (equal(cmp->left, s->if_false) && equal(cmp->right, s->if_true)))) {
        hit_("shape.select_min_max");
      }
    }
  }

  const Program& program_;
  const std::function<void(std::string)>& hit_;
};

}  // namespace

std::vector<std::string> program_shape_universe() {
  std::vector<std::string> u = {"size.statements.le32",
                                "size.statements.le100",
                                "size.statements.gt100",
                                "size.expr_depth.le4",
                                "size.expr_depth.le7",
                                "size.expr_depth.ge8",
                                "size.workgroup.1",
                                "size.workgroup.le16",
                                "size.workgroup.le128",
                                "size.workgroup.odd_gt16",
                                "size.invocations.le192",
                                "size.invocations.le4096",
                                "size.invocations.gt4096",
                                "comm.loop_exchange.workgroup",
                                "comm.loop_exchange.storage",
                                "comm.atomic_guarded_section",
                                "comm.atomic_read_after_barrier",
                                "comm.cas_retry_loop",
                                "shape.branch_records",
                                "shape.opaque_guard",
                                "shape.div_mod_power_of_two",
                                "shape.shift_pair",
                                "shape.cast_of_cast",
                                "shape.select_min_max"};
  for (int depth = 1; depth <= 6; ++depth) u.push_back("size.nesting." + std::to_string(depth));
  for (const char* outer : {"if", "loop", "block"}) {
    for (const char* inner :
         {"let", "assign", "store", "if", "loop", "block", "return", "barrier", "atomic"}) {
      u.push_back(std::string("pair.") + outer + "." + inner);
    }
  }
  return u;
}

void record_program_shapes(const Program& program, const std::function<void(std::string)>& hit) {
  ShapeRecorder(program, hit).run();
}

std::string invocation_class(uint64_t invocations) {
  return invocations <= 192    ? "size.invocations.le192"
         : invocations <= 4096 ? "size.invocations.le4096"
                               : "size.invocations.gt4096";
}

}  // namespace vyre::coverage_detail
