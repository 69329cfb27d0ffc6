// V006 V008 V011: every variable resolves to a live binding, no binding
// shadows a live name, and loop variables are never assigned. A Let or loop
// variable that shadows (V008) binds nothing, so uses keep resolving to the
// original binding.
#include "spec/validate/rule_families.h"
#include "spec/validate/scoped_names.h"
#include "spec/validate/walk.h"

namespace vyre {
namespace {

class ScopeChecker {
 public:
  explicit ScopeChecker(DiagnosticSink& sink) : sink_(sink) {}

  void check_body(const Body& body) {
    for (const Node& n : body) check_node(n);
  }

 private:
  struct Local {
    bool is_loop_variable;
  };

  void check_uses(const ExprPtr& root) {
    for_each_expr(root, [this](const Expr& e) {
      const auto* v = e.as<expr::Var>();
      if (v != nullptr && names_.find(v->name) == nullptr) {
        sink_.report(e, MessageId::UndeclaredVariable, {{"name", v->name}});
      }
    });
  }

  void check_scope(const Body& body) {
    names_.open();
    check_body(body);
    names_.close();
  }

  void check_node(const Node& n) {
    for (size_t i = 0; i < operand_count(n); ++i) check_uses(operand(n, i));
    if (const auto* x = n.as<node::Let>()) {
      if (!names_.declare(x->name, Local{false})) {
        sink_.report(n, MessageId::DuplicateLocal, {{"name", x->name}});
      }
    } else if (const auto* x = n.as<node::Assign>()) {
      const Local* local = names_.find(x->name);
      if (local == nullptr) {
        sink_.report(n, MessageId::AssignUndeclaredVariable, {{"name", x->name}});
      } else if (local->is_loop_variable) {
        sink_.report(n, MessageId::AssignLoopVariable, {{"name", x->name}});
      }
    } else if (const auto* x = n.as<node::Loop>()) {
      names_.open();
      if (!names_.declare(x->var, Local{true})) {
        sink_.report(n, MessageId::DuplicateLocal, {{"name", x->var}});
      }
      check_body(x->body);
      names_.close();
    } else {
      for (size_t i = 0; i < body_count(n); ++i) check_scope(body(n, i));
    }
  }

  DiagnosticSink& sink_;
  ScopedNames<Local> names_;
};

}  // namespace

void check_scoping(const ValidationContext& context, DiagnosticSink& sink) {
  ScopeChecker(sink).check_body(context.program.entry);
}

}  // namespace vyre
