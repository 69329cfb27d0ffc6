// The OpenCL C emitter: statements and expressions of the kernel body.
#include "backends/opencl/opencl_c_emitter.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <vector>

#include "backends/opencl/opencl_c_buffers.h"
#include "backends/opencl/opencl_c_tables.h"

namespace vyre::opencl {
namespace {

/// Deepest Call nesting inlined; deeper means a recursive composition.
constexpr int kMaxInlineDepth = 64;

/// A lowered expression: a variable or literal, and its type.
struct Value {
  std::string text;
  DataType type = DataType::U32;
};

/// A local as the kernel sees it.
struct Binding {
  Value value;
  bool is_mutable = true;
};

const Value kNone = {"0u", DataType::U32};

class Emitter {
 public:
  Emitter(const Program& program, const KernelInterface& iface, const OpRegistry& ops)
      : program_(program), iface_(iface), ops_(ops), buffers_(program, iface) {}

  Result<std::string> run() {
    indent_ = 1;
    scopes_.emplace_back();
    for (const Node& n : program_.entry) node(n);
    if (error_) return *error_;
    const auto& size = iface_.workgroup_size;
    std::string out = "// Lowered from a vyre 0.4.0 program (backends/opencl).\n";
    out += kOpenClPrelude;
    out += "__kernel __attribute__((reqd_work_group_size(" + std::to_string(size[0]) + ", " +
           std::to_string(size[1]) + ", " + std::to_string(size[2]) + ")))\nvoid " +
           std::string(kKernelName) + "(" + buffers_.parameters() + ") {\n";
    out += buffers_.workgroup_memory();
    if (iface_.loop_iteration_budget != 0) out += "  uint vyre_iterations = 0u;\n";
    out += body_;
    out += "}\n";
    return out;
  }

 private:
  // ---- output

  void line(const std::string& text) {
    body_.append(static_cast<size_t>(indent_) * 2, ' ');
    body_ += text;
    body_ += '\n';
  }

  void fail(const std::string& what, SourceLoc loc) {
    if (error_) return;
    std::string where;
    if (loc.known()) where = " at " + std::to_string(loc.line) + ":" + std::to_string(loc.col);
    error_ = Error{"cannot lower the program" + where + ": " + what +
                       " (validate the program first: the validator rejects this)",
                   loc};
  }

  std::string value_type(DataType type) const { return std::string(opencl_type(type)->value); }

  /// A fresh temporary holding `init`.
  Value temp(DataType type, const std::string& init) {
    const std::string name = "t" + std::to_string(next_temp_++);
    line("const " + value_type(type) + " " + name + " = " + init + ";");
    return {name, type};
  }

  /// A fresh temporary holding the zero of `type`, to be set by a guarded access.
  Value zeroed_temp(DataType type) {
    const std::string name = "t" + std::to_string(next_temp_++);
    line(value_type(type) + " " + name + " = " + std::string(opencl_type(type)->zero) + ";");
    return {name, type};
  }

  /// A fresh name for the IR local `name`, readable but never clashing with
  /// OpenCL C keywords, builtins or the reserved "__".
  std::string local_name(const std::string& name) {
    std::string out = "v" + std::to_string(next_local_++) + "_";
    for (char c : name) {
      if (std::isalnum(static_cast<unsigned char>(c)) && out.size() < 32) out += c;
    }
    return out;
  }

  // ---- scopes

  const Binding* lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (auto found = it->find(name); found != it->end()) return &found->second;
    }
    return nullptr;
  }

  void scoped_body(const Body& body) {
    scopes_.emplace_back();
    ++indent_;
    for (const Node& n : body) node(n);
    --indent_;
    scopes_.pop_back();
  }

  /// A condition: U32 truthiness or Bool (S4).
  std::optional<std::string> truth(const Value& v, SourceLoc loc) {
    if (v.type == DataType::Bool) return v.text;
    if (v.type == DataType::U32) return "(" + v.text + " != 0u)";
    fail("a condition must be u32 or bool, not " + std::string(name_of(v.type)), loc);
    return std::nullopt;
  }

  bool expect_u32(const Value& v, const char* what, SourceLoc loc) {
    if (v.type == DataType::U32) return true;
    fail(std::string(what) + " must be u32, not " + std::string(name_of(v.type)), loc);
    return false;
  }

  /// The buffer called `name`, or nullptr (and an error) when there is none
  /// or its elements are not values (Bytes).
  const ClBuffer* buffer(const std::string& name, SourceLoc loc) {
    const ClBuffer* b = buffers_.find(name);
    if (b == nullptr) {
      fail("unknown buffer `" + printable(name) + "`", loc);
    } else if (!opencl_type(b->decl->element)) {
      fail("buffer `" + printable(name) + "` of type " + std::string(name_of(b->decl->element)) +
               " holds no loadable values",
           loc);
      return nullptr;
    }
    return b;
  }

  // ---- statements

  void node(const Node& n) {
    if (error_) return;
    std::visit([&](const auto& kind) { statement(kind, n.loc); }, n.kind);
  }

  void statement(const node::Let& let, SourceLoc loc) {
    const Value v = expr(*let.value);
    if (error_) return;
    if (lookup(let.name) != nullptr)
      return fail("`" + printable(let.name) + "` shadows a binding", loc);
    const std::string name = local_name(let.name);
    line(value_type(v.type) + " " + name + " = " + v.text + ";");
    scopes_.back()[let.name] = {{name, v.type}, true};
  }

  void statement(const node::Assign& assign, SourceLoc loc) {
    const Value v = expr(*assign.value);
    if (error_) return;
    const Binding* target = lookup(assign.name);
    if (target == nullptr)
      return fail("assignment to unknown `" + printable(assign.name) + "`", loc);
    if (!target->is_mutable)
      return fail("loop variable `" + printable(assign.name) + "` is immutable", loc);
    if (target->value.type != v.type)
      return fail("assignment changes the type of `" + printable(assign.name) + "`", loc);
    line(target->value.text + " = " + v.text + ";");
  }

  void statement(const node::Store& store, SourceLoc loc) {
    const ClBuffer* b = buffer(store.buffer, loc);
    const Value index = expr(*store.index);
    const Value value = expr(*store.value);
    if (error_ || !expect_u32(index, "a store index", loc)) return;
    if (!is_writable(b->decl->access))
      return fail("store to read-only buffer `" + printable(store.buffer) + "`", loc);
    if (value.type != b->decl->element)
      return fail(
          "stored value type differs from the element type of `" + printable(store.buffer) + "`",
          loc);
    line(buffers_.store(*b, index.text, value.text));
  }

  void statement(const node::If& branch, SourceLoc loc) {
    const Value cond = expr(*branch.cond);
    if (error_) return;
    const auto test = truth(cond, loc);
    if (!test) return;
    // A test is a bool value or an already parenthesised u32 comparison.
    line("if " + (test->front() == '(' ? *test : "(" + *test + ")") + " {");
    scoped_body(branch.then_body);
    if (!branch.otherwise.empty()) {
      line("} else {");
      scoped_body(branch.otherwise);
    }
    line("}");
  }

  void statement(const node::Loop& loop, SourceLoc loc) {
    // Bounds are evaluated once, into temporaries, before the first iteration;
    // the body cannot change them even when they were plain variables.
    const Value from = expr(*loop.from);
    const Value to = expr(*loop.to);
    if (error_ || !expect_u32(from, "a loop bound", loc) || !expect_u32(to, "a loop bound", loc))
      return;
    line("{");
    ++indent_;
    const Value lo = temp(DataType::U32, from.text);
    const Value hi = temp(DataType::U32, to.text);
    const std::string counter = "c" + std::to_string(next_temp_++);
    // Half-open: the counter never passes `hi`, so it cannot wrap.
    line("for (uint " + counter + " = " + lo.text + "; " + counter + " < " + hi.text + "; ++" +
         counter + ") {");
    ++indent_;
    if (iface_.loop_iteration_budget != 0) {
      line("if (++vyre_iterations > " + std::to_string(iface_.loop_iteration_budget) +
           "u) { vyre_control[0] = 1u; return; }");
    }
    // Each iteration's scope: the immutable loop variable, then the body.
    scopes_.emplace_back();
    const std::string var = local_name(loop.var);
    line("const uint " + var + " = " + counter + ";");
    scopes_.back()[loop.var] = {{var, DataType::U32}, false};
    for (const Node& n : loop.body) node(n);
    scopes_.pop_back();
    --indent_;
    line("}");
    --indent_;
    line("}");
  }

  void statement(const node::Return&, SourceLoc) { line("return;"); }

  void statement(const node::Block& block, SourceLoc) {
    line("{");
    scoped_body(block.body);
    line("}");
  }

  void statement(const node::Barrier&, SourceLoc) { line(std::string(kBarrierStatement)); }

  // ---- expressions

  Value expr(const Expr& e) {
    if (error_) return kNone;
    return std::visit([&](const auto& kind) { return expression(kind, e.loc); }, e.kind);
  }

  Value expression(const expr::LitU32& lit, SourceLoc) {
    return {std::to_string(lit.value) + "u", DataType::U32};
  }

  Value expression(const expr::LitI32& lit, SourceLoc) {
    // -2147483648 is not a literal in C (it is the negation of a long), so
    // negative values are written as their bits.
    if (lit.value >= 0) return {std::to_string(lit.value), DataType::I32};
    char text[32];
    std::snprintf(text, sizeof text, "as_int(0x%08Xu)", static_cast<uint32_t>(lit.value));
    return {text, DataType::I32};
  }

  Value expression(const expr::LitBool& lit, SourceLoc) {
    return {lit.value ? "true" : "false", DataType::Bool};
  }

  Value expression(const expr::Var& v, SourceLoc loc) {
    if (const Binding* b = lookup(v.name)) return b->value;
    fail("unknown variable `" + printable(v.name) + "`", loc);
    return kNone;
  }

  Value expression(const expr::Load& load, SourceLoc loc) {
    const ClBuffer* b = buffer(load.buffer, loc);
    const Value index = expr(*load.index);
    if (error_ || !expect_u32(index, "a load index", loc)) return kNone;
    const Value result = zeroed_temp(b->decl->element);
    line(buffers_.load(*b, result.text, index.text));
    return result;
  }

  Value expression(const expr::BufLen& len, SourceLoc loc) {
    const ClBuffer* b = buffers_.find(len.buffer);
    if (b == nullptr) {
      fail("unknown buffer `" + printable(len.buffer) + "`", loc);
      return kNone;
    }
    return {b->count, DataType::U32};
  }

  Value builtin(const char* function, uint32_t axis, SourceLoc loc) {
    if (axis > 2) {
      fail("axis " + std::to_string(axis) + " is not 0, 1 or 2", loc);
      return kNone;
    }
    // size_t ids; the dispatch checks keep every id within u32.
    return {"((uint)" + std::string(function) + "(" + std::to_string(axis) + "))", DataType::U32};
  }

  Value expression(const expr::InvocationId& id, SourceLoc loc) {
    return builtin("get_global_id", id.axis, loc);
  }
  Value expression(const expr::WorkgroupId& id, SourceLoc loc) {
    return builtin("get_group_id", id.axis, loc);
  }
  Value expression(const expr::LocalId& id, SourceLoc loc) {
    return builtin("get_local_id", id.axis, loc);
  }

  Value expression(const expr::Binary& bin, SourceLoc loc) {
    const Value l = expr(*bin.left);
    const Value r = expr(*bin.right);
    if (error_ || !expect_u32(l, "a binary operand", loc) ||
        !expect_u32(r, "a binary operand", loc)) {
      return kNone;
    }
    return temp(DataType::U32, expand(opencl_pattern(bin.op), {l.text, r.text}));
  }

  Value expression(const expr::Unary& un, SourceLoc loc) {
    const Value x = expr(*un.operand);
    if (error_ || !expect_u32(x, "a unary operand", loc)) return kNone;
    return temp(DataType::U32, expand(opencl_pattern(un.op), {x.text}));
  }

  Value expression(const expr::Call& call, SourceLoc loc) {
    const OpSpec* op = ops_.find(call.op_id);
    if (op == nullptr || !op->inlinable || op->composition == nullptr) {
      fail("`" + printable(call.op_id) + "` is not a registered inlinable op", loc);
      return kNone;
    }
    if (call.args.size() != op->arity || op->arity > std::size(kOpParams)) {
      fail("`" + printable(call.op_id) + "` takes " + std::to_string(op->arity) + " arguments",
           loc);
      return kNone;
    }
    if (inline_depth_ >= kMaxInlineDepth) {
      fail("calls nest deeper than " + std::to_string(kMaxInlineDepth) + " (recursive op?)", loc);
      return kNone;
    }
    // Arguments once each, left to right; then the composition sees only its
    // parameters, bound to the argument values.
    std::map<std::string, Binding> params;
    for (size_t i = 0; i < call.args.size(); ++i) {
      params[std::string(kOpParams[i])] = {expr(*call.args[i]), false};
    }
    std::vector<std::map<std::string, Binding>> caller_scopes = std::move(scopes_);
    scopes_ = {std::move(params)};
    ++inline_depth_;
    Value result = expr(*op->composition);
    --inline_depth_;
    scopes_ = std::move(caller_scopes);
    return result;
  }

  Value expression(const expr::Select& sel, SourceLoc loc) {
    // cond, then both arms (their side effects always happen), then pick.
    const Value cond = expr(*sel.cond);
    const Value yes = expr(*sel.if_true);
    const Value no = expr(*sel.if_false);
    if (error_) return kNone;
    const auto test = truth(cond, loc);
    if (!test) return kNone;
    if (yes.type != no.type) {
      fail("select arms differ in type", loc);
      return kNone;
    }
    return temp(yes.type, "(" + *test + " ? " + yes.text + " : " + no.text + ")");
  }

  Value expression(const expr::Cast& cast, SourceLoc loc) {
    const Value v = expr(*cast.value);
    if (error_) return kNone;
    const auto pattern = opencl_cast_pattern(v.type, cast.target);
    if (!pattern) {
      fail("no cast from " + std::string(name_of(v.type)) + " to " +
               std::string(name_of(cast.target)),
           loc);
      return kNone;
    }
    return temp(cast.target, expand(*pattern, {v.text}));
  }

  Value expression(const expr::Atomic& atomic, SourceLoc loc) {
    const ClBuffer* b = buffer(atomic.buffer, loc);
    const Value index = expr(*atomic.index);
    const bool cas = atomic.op == AtomicOp::CompareExchange;
    std::optional<Value> expected;
    if (cas && atomic.expected != nullptr) expected = expr(*atomic.expected);
    const Value value = expr(*atomic.value);
    if (error_) return kNone;
    if (b->decl->access != BufferAccess::ReadWrite || b->decl->element != DataType::U32) {
      fail("atomics need a read_write u32 buffer; `" + printable(atomic.buffer) + "` is not", loc);
      return kNone;
    }
    if (cas != expected.has_value() || (!cas && atomic.expected != nullptr)) {
      fail("`expected` belongs to compare-exchange and to no other atomic", loc);
      return kNone;
    }
    if (!expect_u32(index, "an atomic index", loc) || !expect_u32(value, "an atomic value", loc) ||
        (expected && !expect_u32(*expected, "an atomic expected value", loc))) {
      return kNone;
    }
    const Value result = zeroed_temp(DataType::U32);
    line(buffers_.atomic(*b, atomic.op, result.text, index.text, expected ? expected->text : "",
                         value.text));
    return result;
  }

  const Program& program_;
  const KernelInterface& iface_;
  const OpRegistry& ops_;
  ClBuffers buffers_;
  std::vector<std::map<std::string, Binding>> scopes_;
  std::string body_;
  int indent_ = 0;
  int inline_depth_ = 0;
  uint64_t next_temp_ = 0;
  uint64_t next_local_ = 0;
  std::optional<Error> error_;
};

}  // namespace

Result<std::string> emit_opencl_c(const Program& program, const KernelInterface& iface,
                                  const OpRegistry& ops) {
  return Emitter(program, iface, ops).run();
}

}  // namespace vyre::opencl
