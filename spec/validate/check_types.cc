// The type checker: every expression gets its type by SEMANTICS.md S2, and
// V012 V015 V021 V022 V023 V026 V027 V028 V032 V033 V035 V036 V037 and V038
// (casts) check them. A type that cannot be known because of an error
// already reported (an unknown buffer or variable, a shadowed name, a Bytes or
// planned element, mismatched Select arms, a missing operand) is "unknown",
// and nothing is reported about unknown types, so one mistake yields one
// diagnostic. Recursion is safe: the limit checks ran first.
#include <optional>
#include <string>

#include "spec/ir/casts.h"
#include "spec/validate/operands.h"
#include "spec/validate/rule_families.h"
#include "spec/validate/scoped_names.h"

namespace vyre {
namespace {

/// A known type, or nullopt when an earlier error makes it unknowable.
using Type = std::optional<DataType>;

std::string type_name(DataType t) {
  return std::string(name_of(t));
}

bool is_condition_type(DataType t) {
  return t == DataType::U32 || t == DataType::Bool;
}

class TypeChecker {
 public:
  TypeChecker(const ValidationContext& context, DiagnosticSink& sink)
      : buffers_(context.buffers), sink_(sink) {}

  void check_body(const Body& body) {
    for (const Node& n : body) check_node(n);
  }

 private:
  struct Local {
    Type type;
    bool is_loop_variable;
  };

  /// The type of a Load from `buffer`: its element, unless that is unknown,
  /// Bytes (V013) or planned (V038).
  Type element_type(const std::string& buffer) const {
    const BufferDecl* b = buffers_.find(buffer);
    if (b == nullptr || b->element == DataType::Bytes || !is_stable(b->element)) {
      return std::nullopt;
    }
    return b->element;
  }

  void check_index(const std::string& buffer, const ExprPtr& index) {
    const Type t = type_of(index);
    if (t && *t != DataType::U32) {
      sink_.report(*index, MessageId::IndexNotU32, {{"name", buffer}, {"type", type_name(*t)}});
    }
  }

  /// Checks that `e` is U32, reporting `id` with {"type"} plus `extra` otherwise.
  void expect_u32(const ExprPtr& e, MessageId id, MessageArg extra) {
    const Type t = type_of(e);
    if (t && *t != DataType::U32) sink_.report(*e, id, {std::move(extra), {"type", type_name(*t)}});
  }

  Type type_of(const ExprPtr& e) {
    if (e == nullptr) return std::nullopt;  // V040
    return std::visit([this, &e](const auto& x) { return type_of(*e, x); }, e->kind);
  }

  Type type_of(const Expr&, const expr::LitU32&) { return DataType::U32; }
  Type type_of(const Expr&, const expr::LitI32&) { return DataType::I32; }
  Type type_of(const Expr&, const expr::LitBool&) { return DataType::Bool; }
  Type type_of(const Expr&, const expr::BufLen&) { return DataType::U32; }
  Type type_of(const Expr&, const expr::InvocationId&) { return DataType::U32; }
  Type type_of(const Expr&, const expr::WorkgroupId&) { return DataType::U32; }
  Type type_of(const Expr&, const expr::LocalId&) { return DataType::U32; }

  Type type_of(const Expr&, const expr::Var& x) {
    const Local* local = names_.find(x.name);
    return local == nullptr ? std::nullopt : local->type;  // V006
  }

  Type type_of(const Expr&, const expr::Load& x) {
    check_index(x.buffer, x.index);
    return element_type(x.buffer);
  }

  Type type_of(const Expr&, const expr::Binary& x) {
    expect_u32(x.left, MessageId::BinaryOperandNotU32, {"left|right", "left"});
    expect_u32(x.right, MessageId::BinaryOperandNotU32, {"left|right", "right"});
    return DataType::U32;
  }

  Type type_of(const Expr&, const expr::Unary& x) {
    const Type t = type_of(x.operand);
    if (t && *t != DataType::U32) {
      sink_.report(*x.operand, MessageId::UnaryOperandNotU32, {{"type", type_name(*t)}});
    }
    return DataType::U32;
  }

  Type type_of(const Expr&, const expr::Call& x) {
    for (size_t i = 0; i < x.args.size(); ++i) {
      const Type t = type_of(x.args[i]);
      if (t && *t != DataType::U32) {
        // Arguments are numbered from 1, as people count them.
        sink_.report(
            *x.args[i], MessageId::CallArgumentNotU32,
            {{"index", std::to_string(i + 1)}, {"op_id", x.op_id}, {"type", type_name(*t)}});
      }
    }
    return DataType::U32;
  }

  Type type_of(const Expr& at, const expr::Select& x) {
    const Type cond = type_of(x.cond);
    if (cond && !is_condition_type(*cond)) {
      sink_.report(*x.cond, MessageId::SelectConditionType, {{"type", type_name(*cond)}});
    }
    const Type if_true = type_of(x.if_true);
    const Type if_false = type_of(x.if_false);
    if (!if_true || !if_false) return std::nullopt;
    if (*if_true != *if_false) {
      sink_.report(at, MessageId::SelectArmsDiffer,
                   {{"true_type", type_name(*if_true)}, {"false_type", type_name(*if_false)}});
      return std::nullopt;
    }
    return if_true;
  }

  Type type_of(const Expr& at, const expr::Cast& x) {
    const Type source = type_of(x.value);
    if (!is_stable(x.target)) {
      sink_.report(at, MessageId::PlannedCastTarget, {{"type", type_name(x.target)}});
      return std::nullopt;
    }
    // No Bytes value exists (S2), so every cast to Bytes is V023 whatever its source.
    if (x.target == DataType::Bytes) {
      sink_.report(at, MessageId::CastToBytes);
      return std::nullopt;
    }
    if (source && cast_verdict(*source, x.target) != CastVerdict::Valid) {
      sink_.report(at, MessageId::UnsupportedCast,
                   {{"source", type_name(*source)}, {"target", type_name(x.target)}});
    }
    return x.target;
  }

  Type type_of(const Expr&, const expr::Atomic& x) {
    check_index(x.buffer, x.index);
    if (x.expected != nullptr) {
      expect_u32(x.expected, MessageId::AtomicOperandNotU32, {"operand", "expected"});
    }
    expect_u32(x.value, MessageId::AtomicOperandNotU32, {"operand", "value"});
    return DataType::U32;
  }

  void check_scope(const Body& body) {
    names_.open();
    check_body(body);
    names_.close();
  }

  void check_node(const Node& n) {
    std::visit([this, &n](const auto& x) { check_node(n, x); }, n.kind);
  }

  /// Binds a Let or loop variable. A shadowing one (V008) binds nothing, and
  /// the name's type becomes unknown: which binding its uses meant is unclear.
  void declare(const std::string& name, Local local) {
    if (!names_.declare(name, local)) names_.find(name)->type = std::nullopt;
  }

  void check_node(const Node&, const node::Let& x) {
    declare(x.name, Local{type_of(x.value), false});
  }

  void check_node(const Node&, const node::Assign& x) {
    const Type value = type_of(x.value);
    const Local* local = names_.find(x.name);
    // Undeclared (V006) and loop variables (V011) are reported elsewhere.
    if (local == nullptr || local->is_loop_variable || !local->type || !value) return;
    if (*value != *local->type) {
      sink_.report(
          *x.value, MessageId::AssignValueType,
          {{"type", type_name(*value)}, {"name", x.name}, {"var_type", type_name(*local->type)}});
    }
  }

  void check_node(const Node&, const node::Store& x) {
    check_index(x.buffer, x.index);
    const Type value = type_of(x.value);
    const Type element = element_type(x.buffer);
    if (value && element && *value != *element) {
      sink_.report(
          *x.value, MessageId::StoreValueType,
          {{"name", x.buffer}, {"type", type_name(*value)}, {"element", type_name(*element)}});
    }
  }

  void check_node(const Node&, const node::If& x) {
    const Type cond = type_of(x.cond);
    if (cond && !is_condition_type(*cond)) {
      sink_.report(*x.cond, MessageId::IfConditionType, {{"type", type_name(*cond)}});
    }
    check_scope(x.then_body);
    check_scope(x.otherwise);
  }

  void check_node(const Node&, const node::Loop& x) {
    for (const ExprPtr* bound : {&x.from, &x.to}) {
      const Type t = type_of(*bound);
      if (t && *t != DataType::U32) {
        sink_.report(**bound, MessageId::LoopBoundNotU32, {{"type", type_name(*t)}});
      }
    }
    names_.open();
    declare(x.var, Local{DataType::U32, true});
    check_body(x.body);
    names_.close();
  }

  void check_node(const Node&, const node::Block& x) { check_scope(x.body); }
  void check_node(const Node&, const node::Return&) {}
  void check_node(const Node&, const node::Barrier&) {}

  const BufferTable& buffers_;
  DiagnosticSink& sink_;
  ScopedNames<Local> names_;
};

}  // namespace

void check_types(const ValidationContext& context, DiagnosticSink& sink) {
  TypeChecker(context, sink).check_body(context.program.entry);
}

}  // namespace vyre
