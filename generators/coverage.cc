#include "generators/coverage.h"

#include "generators/coverage_shapes.h"

#include <array>
#include <map>
#include <utility>
#include <vector>

#include "spec/ir/casts.h"
#include "spec/ir/op_registry.h"

namespace vyre {
namespace {

using C = CoverageContext;

constexpr std::array<std::string_view, 16> kContextNames = {
    "let_value",   "assign_value", "store_index",  "store_value",    "if_cond",    "loop_bound",
    "select_cond", "select_arm",   "atomic_index", "atomic_operand", "load_index", "call_arg",
    "top_level",   "if_body",      "loop_body",    "block_body"};

constexpr std::array<DataType, 6> kValueTypes = {DataType::U32,     DataType::I32,
                                                 DataType::U64,     DataType::Vec2U32,
                                                 DataType::Vec4U32, DataType::Bool};
constexpr std::array<C, 12> kExprContexts = {
    C::LetValue,   C::AssignValue, C::StoreIndex,  C::StoreValue,    C::IfCond,    C::LoopBound,
    C::SelectCond, C::SelectArm,   C::AtomicIndex, C::AtomicOperand, C::LoadIndex, C::CallArg};
constexpr std::array<C, 4> kBodyContexts = {C::TopLevel, C::IfBody, C::LoopBody, C::BlockBody};
constexpr std::array<std::string_view, 11> kExprKinds = {
    "lit", "var", "load", "buflen", "id", "bin", "un", "call", "select", "cast", "atomic"};
constexpr std::array<std::string_view, 8> kStmtKinds = {"stmt.let",    "stmt.assign", "stmt.store",
                                                        "stmt.if",     "stmt.loop",   "stmt.block",
                                                        "stmt.return", "stmt.barrier"};

/// Shapes of statements that span more than one node (coverage.h).
constexpr std::string_view kReturnInLoopUnderIf = "shape.return_in_loop_under_if";
constexpr std::string_view kLoadAfterStore = "shape.load_after_store";

std::string str(std::string_view a, std::string_view b) {
  return std::string(a) + "." + std::string(b);
}

/// The kind of an op name: "stmt.x" for statements, else the first component.
std::string kind_of(const std::string& op) {
  const size_t dot = op.find('.');
  if (op.starts_with("stmt.")) return op.substr(0, op.find('.', dot + 1));
  return op.substr(0, dot);
}

/// The operation-by-type universe.
std::set<std::pair<std::string, DataType>> op_type_universe() {
  std::set<std::pair<std::string, DataType>> u;
  for (BinOp op : all_bin_ops()) u.insert({str("bin", name_of(op)), DataType::U32});
  for (UnOp op : all_un_ops()) u.insert({str("un", name_of(op)), DataType::U32});
  for (AtomicOp op : all_atomic_ops()) u.insert({str("atomic", name_of(op)), DataType::U32});
  for (const OpSpec& op : OpRegistry::standard().ops()) {
    if (op.inlinable) u.insert({"call." + op.id, DataType::U32});
  }
  for (DataType from : kValueTypes) {
    for (DataType to : kValueTypes) {
      if (cast_verdict(from, to) == CastVerdict::Valid)
        u.insert({str("cast.from", name_of(from)), to});
    }
  }
  for (BufferAccess a : all_accesses()) {
    for (DataType t : kValueTypes) {
      u.insert({str("load", name_of(a)), t});
      if (is_writable(a)) u.insert({str("stmt.store", name_of(a)), t});
    }
    for (DataType t : all_data_types()) {
      if (is_stable(t)) u.insert({str("buflen", name_of(a)), t});
    }
  }
  for (DataType t : {DataType::U32, DataType::I32, DataType::Bool}) u.insert({"lit", t});
  for (DataType t : kValueTypes) {
    u.insert({"var", t});
    u.insert({"select", t});
    u.insert({"stmt.let", t});
    u.insert({"stmt.assign", t});
  }
  for (std::string_view id : {"invocation_id", "workgroup_id", "local_id"}) {
    for (std::string_view axis : {"x", "y", "z"})
      u.insert({str(str("id", id), axis), DataType::U32});
  }
  u.insert({"stmt.if", DataType::U32});
  u.insert({"stmt.if", DataType::Bool});
  for (std::string_view s : {"stmt.loop", "stmt.block", "stmt.return", "stmt.barrier"}) {
    u.insert({std::string(s), DataType::U32});
  }
  for (std::string_view s : {kReturnInLoopUnderIf, kLoadAfterStore}) {
    u.insert({std::string(s), DataType::U32});
  }
  for (std::string& s : coverage_detail::program_shape_universe()) {
    u.insert({std::move(s), DataType::U32});
  }
  return u;
}

/// The kind-by-context universe.
std::set<std::pair<std::string, C>> kind_context_universe() {
  std::set<std::pair<std::string, C>> u;
  for (std::string_view k : kExprKinds) {
    for (C c : kExprContexts) u.insert({std::string(k), c});
  }
  for (std::string_view k : kStmtKinds) {
    for (C c : kBodyContexts) u.insert({std::string(k), c});
  }
  return u;
}

constexpr std::array<std::string_view, 3> kAxes = {"x", "y", "z"};

/// Walks a program recording hits, with the types of live locals.
class Recorder {
 public:
  explicit Recorder(const Program& p) : program_(p) {}

  Coverage run() {
    body(program_.entry, C::TopLevel);
    return std::move(coverage_);
  }

 private:
  void hit(std::string op, DataType type, C context) {
    coverage_.add({std::move(op), type, context});
  }

  std::string axis(uint32_t a) const { return a < 3 ? std::string(kAxes[a]) : "?"; }

  /// Records `e` and its operands; returns its type (U32 when unknown).
  DataType expr(const ExprPtr& e, C context) {
    if (!e) return DataType::U32;
    return std::visit([&](const auto& k) { return expr_kind(k, context); }, e->kind);
  }

  DataType expr_kind(const expr::LitU32&, C c) { return leaf("lit", DataType::U32, c); }
  DataType expr_kind(const expr::LitI32&, C c) { return leaf("lit", DataType::I32, c); }
  DataType expr_kind(const expr::LitBool&, C c) { return leaf("lit", DataType::Bool, c); }
  DataType expr_kind(const expr::Var& v, C c) {
    const auto it = locals_.find(v.name);
    return leaf("var", it == locals_.end() ? DataType::U32 : it->second, c);
  }
  DataType expr_kind(const expr::Load& l, C c) {
    expr(l.index, C::LoadIndex);
    const BufferDecl* b = program_.buffer(l.buffer);
    if (b == nullptr) return DataType::U32;
    for (const auto& [buffer, index] : stored_) {
      if (buffer == l.buffer && equal(index, l.index)) {
        hit(std::string(kLoadAfterStore), b->element, c);
        break;
      }
    }
    return leaf(str("load", name_of(b->access)), b->element, c);
  }
  DataType expr_kind(const expr::BufLen& l, C c) {
    if (const BufferDecl* b = program_.buffer(l.buffer)) {
      hit(str("buflen", name_of(b->access)), b->element, c);
    }
    return DataType::U32;
  }
  DataType expr_kind(const expr::InvocationId& i, C c) {
    return leaf("id.invocation_id." + axis(i.axis), DataType::U32, c);
  }
  DataType expr_kind(const expr::WorkgroupId& i, C c) {
    return leaf("id.workgroup_id." + axis(i.axis), DataType::U32, c);
  }
  DataType expr_kind(const expr::LocalId& i, C c) {
    return leaf("id.local_id." + axis(i.axis), DataType::U32, c);
  }
  DataType expr_kind(const expr::Binary& b, C c) {
    expr(b.left, c);
    expr(b.right, c);
    return leaf(str("bin", name_of(b.op)), DataType::U32, c);
  }
  DataType expr_kind(const expr::Unary& u, C c) {
    expr(u.operand, c);
    return leaf(str("un", name_of(u.op)), DataType::U32, c);
  }
  DataType expr_kind(const expr::Call& call, C c) {
    for (const ExprPtr& a : call.args) expr(a, C::CallArg);
    return leaf("call." + call.op_id, DataType::U32, c);
  }
  DataType expr_kind(const expr::Select& s, C c) {
    expr(s.cond, C::SelectCond);
    const DataType t = expr(s.if_true, C::SelectArm);
    expr(s.if_false, C::SelectArm);
    return leaf("select", t, c);
  }
  DataType expr_kind(const expr::Cast& cast, C c) {
    const DataType from = expr(cast.value, c);
    return leaf(str("cast.from", name_of(from)), cast.target, c);
  }
  DataType expr_kind(const expr::Atomic& a, C c) {
    expr(a.index, C::AtomicIndex);
    expr(a.expected, C::AtomicOperand);
    expr(a.value, C::AtomicOperand);
    return leaf(str("atomic", name_of(a.op)), DataType::U32, c);
  }

  DataType leaf(std::string op, DataType type, C c) {
    hit(std::move(op), type, c);
    return type;
  }

  void body(const Body& b, C where) {
    std::vector<std::string> declared;
    const size_t stores_before = stored_.size();
    for (const Node& n : b) statement(n, where, declared);
    for (const std::string& name : declared) locals_.erase(name);
    stored_.resize(stores_before);
  }

  void statement(const Node& n, C where, std::vector<std::string>& declared) {
    if (const auto* x = n.as<node::Let>()) {
      const DataType t = expr(x->value, C::LetValue);
      locals_[x->name] = t;
      declared.push_back(x->name);
      hit("stmt.let", t, where);
    } else if (const auto* x = n.as<node::Assign>()) {
      hit("stmt.assign", expr(x->value, C::AssignValue), where);
    } else if (const auto* x = n.as<node::Store>()) {
      expr(x->index, C::StoreIndex);
      expr(x->value, C::StoreValue);
      stored_.emplace_back(x->buffer, x->index);
      if (const BufferDecl* b = program_.buffer(x->buffer)) {
        hit(str("stmt.store", name_of(b->access)), b->element, where);
      }
    } else if (const auto* x = n.as<node::If>()) {
      hit("stmt.if", expr(x->cond, C::IfCond), where);
      ++ifs_;
      body(x->then_body, C::IfBody);
      body(x->otherwise, C::IfBody);
      --ifs_;
    } else if (const auto* x = n.as<node::Loop>()) {
      expr(x->from, C::LoopBound);
      expr(x->to, C::LoopBound);
      hit("stmt.loop", DataType::U32, where);
      locals_[x->var] = DataType::U32;
      if (ifs_ > 0) ++loops_under_if_;
      body(x->body, C::LoopBody);
      if (ifs_ > 0) --loops_under_if_;
      locals_.erase(x->var);
    } else if (const auto* x = n.as<node::Block>()) {
      hit("stmt.block", DataType::U32, where);
      body(x->body, C::BlockBody);
    } else if (n.as<node::Return>() != nullptr) {
      hit("stmt.return", DataType::U32, where);
      if (loops_under_if_ > 0) hit(std::string(kReturnInLoopUnderIf), DataType::U32, where);
    } else if (n.as<node::Barrier>() != nullptr) {
      hit("stmt.barrier", DataType::U32, where);
    }
  }

  const Program& program_;
  Coverage coverage_;
  std::map<std::string, DataType> locals_;
  /// Ifs open around the statement being recorded.
  int ifs_ = 0;
  /// Loops open inside some If around the statement being recorded.
  int loops_under_if_ = 0;
  /// Stores so far in the open bodies, innermost last: (buffer, index).
  std::vector<std::pair<std::string, ExprPtr>> stored_;
};

}  // namespace

std::string_view name_of(CoverageContext context) {
  return kContextNames[static_cast<size_t>(context)];
}

std::vector<std::string> Coverage::missing() const {
  std::set<std::pair<std::string, DataType>> op_types;
  std::set<std::pair<std::string, C>> kind_contexts;
  for (const CoverageHit& h : hits_) {
    op_types.insert({h.op, h.type});
    kind_contexts.insert({kind_of(h.op), h.context});
  }
  std::vector<std::string> out;
  for (const auto& [op, type] : op_type_universe()) {
    if (!op_types.contains({op, type})) out.push_back(op + " " + std::string(name_of(type)));
  }
  for (const auto& [kind, context] : kind_context_universe()) {
    if (!kind_contexts.contains({kind, context})) {
      out.push_back(kind + " @ " + std::string(name_of(context)));
    }
  }
  return out;
}

size_t Coverage::universe_size() {
  return op_type_universe().size() + kind_context_universe().size();
}

Coverage coverage_of(const Program& program) {
  Coverage c = Recorder(program).run();
  // Whole-program entries have no context of their own: top level.
  coverage_detail::record_program_shapes(program, [&](std::string op) {
    c.add({std::move(op), DataType::U32, C::TopLevel});
  });
  return c;
}

Coverage coverage_of(const TestCase& test_case) {
  Coverage c = coverage_of(test_case.program);
  uint64_t invocations = 1;
  for (size_t axis = 0; axis < 3; ++axis) {
    invocations *=
        uint64_t{test_case.program.workgroup_size[axis]} * test_case.grid.workgroups[axis];
  }
  c.add({coverage_detail::invocation_class(invocations), DataType::U32, C::TopLevel});
  return c;
}

}  // namespace vyre
