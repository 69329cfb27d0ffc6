// The shared emitter: statements and expressions of the entry body.
#include "backends/clike/emitter.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <vector>

#include "backends/clike/evaluation_order.h"
#include "backends/mutants/mutant.h"
#include "spec/support/diagnostic_text.h"

namespace vyre::clike {
namespace {

/// Deepest Call nesting inlined; deeper means a recursive composition.
constexpr int kMaxInlineDepth = 64;

/// A lowered expression: a temporary, variable or literal, and its type.
struct Value {
  std::string text;
  DataType type = DataType::U32;
};

/// What an expression that cannot be lowered stands for, after the error.
const Value kNone = {"0u", DataType::U32};

/// A local as the lowered code sees it.
struct Binding {
  Value value;
  bool is_mutable = true;
};

/// The id builtins, by the pattern the dialect gives each.
enum class Id : uint8_t { Invocation, Workgroup, Local };

class Emitter : public Code {
 public:
  Emitter(const Program& program, const Dialect& dialect, BufferAccessor& buffers,
          uint32_t loop_iteration_budget, const OpRegistry& ops)
      : program_(program),
        d_(dialect),
        buffers_(buffers),
        budget_(loop_iteration_budget),
        ops_(ops) {}

  Result<std::string> run() {
    indent_ = 1;
    scopes_.emplace_back();
    for (const Node& n : program_.entry) node(n);
    if (error_) return *error_;
    if (budget_ != 0) return "  " + value_type(DataType::U32) + " vyre_iterations = 0u;\n" + body_;
    return body_;
  }

  void line(const std::string& text) override {
    body_.append(static_cast<size_t>(indent_) * 2, ' ');
    body_ += text;
    body_ += '\n';
  }

  std::string temp(DataType type, const std::string& init) override {
    const std::string name = "t" + std::to_string(next_temp_++);
    line("const " + value_type(type) + " " + name + " = " + init + ";");
    return name;
  }

  std::string zeroed_temp(DataType type) override {
    const std::string name = "t" + std::to_string(next_temp_++);
    line(value_type(type) + " " + name + " = " + std::string(d_.type(type)->zero) + ";");
    return name;
  }

 private:
  // ---- output

  void fail(const std::string& what, SourceLoc loc) {
    if (error_) return;
    error_ = Error{"cannot lower the program" + at_location(loc) + ": " + what +
                       " (validate the program first: the validator rejects this)",
                   loc};
  }

  std::string value_type(DataType type) const { return std::string(d_.type(type)->value); }

  Value temp_value(DataType type, const std::string& init) { return {temp(type, init), type}; }

  /// A fresh name for the IR local `name`, readable but never clashing with
  /// the language's keywords, builtins or the reserved "__".
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

  /// `if (test) {`: a test is a bool value or an already parenthesised u32 comparison.
  void open_if(const std::string& test) {
    line("if " + (test.front() == '(' ? test : "(" + test + ")") + " {");
  }

  bool expect_u32(const Value& v, const char* what, SourceLoc loc) {
    if (v.type == DataType::U32) return true;
    fail(std::string(what) + " must be u32, not " + std::string(name_of(v.type)), loc);
    return false;
  }

  /// The buffer called `name`, or nullptr (and an error) when there is none
  /// or its elements are not values (Bytes).
  const ClikeBuffer* buffer(const std::string& name, SourceLoc loc) {
    const ClikeBuffer* b = buffers_.find(name);
    if (b == nullptr) {
      fail("unknown buffer `" + printable(name) + "`", loc);
    } else if (!d_.type(b->decl->element)) {
      fail("buffer `" + printable(name) + "` of type " + std::string(name_of(b->decl->element)) +
               " holds no loadable values",
           loc);
      return nullptr;
    }
    return b;
  }

  /// The values of `operands`, evaluated in the order S4 pins for `construct`.
  std::vector<Value> operands(OrderedOperands construct, const std::vector<const Expr*>& operands) {
    std::vector<Value> values(operands.size());
    for (size_t i : evaluation_order(construct, operands.size())) values[i] = expr(*operands[i]);
    return values;
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
    const ClikeBuffer* b = buffer(store.buffer, loc);
    const std::vector<Value> v = operands(OrderedOperands::Store, {&*store.index, &*store.value});
    const Value& index = v[0];
    const Value& value = v[1];
    if (error_ || !expect_u32(index, "a store index", loc)) return;
    if (!is_writable(b->decl->access))
      return fail("store to read-only buffer `" + printable(store.buffer) + "`", loc);
    if (value.type != b->decl->element)
      return fail(
          "stored value type differs from the element type of `" + printable(store.buffer) + "`",
          loc);
    buffers_.store(*this, {*b, index.text, value.text, "", AtomicOp::Add});
  }

  void statement(const node::If& branch, SourceLoc loc) {
    const Value cond = expr(*branch.cond);
    if (error_) return;
    const auto test = truth(cond, loc);
    if (!test) return;
    open_if(*test);
    ++if_depth_;
    scoped_body(branch.then_body);
    if (!branch.otherwise.empty()) {
      line("} else {");
      scoped_body(branch.otherwise);
    }
    --if_depth_;
    line("}");
  }

  void statement(const node::Loop& loop, SourceLoc loc) {
    // Bounds are evaluated once, into temporaries, before the first iteration;
    // the body cannot change them even when they were plain variables.
    const std::vector<Value> bounds = operands(OrderedOperands::Loop, {&*loop.from, &*loop.to});
    const Value& from = bounds[0];
    const Value& to = bounds[1];
    if (error_ || !expect_u32(from, "a loop bound", loc) || !expect_u32(to, "a loop bound", loc))
      return;
    line("{");
    ++indent_;
    const Value lo = temp_value(DataType::U32, from.text);
    // LoopBoundReevaluated: a `to` that is not a literal, a variable or an
    // atomic is taken for loop-invariant and recomputed before every
    // iteration (as a C `for` condition), so the body's Assigns move it.
    const bool reevaluated = mutant_active(Mutant::LoopBoundReevaluated) &&
                             !loop.to->as<expr::Var>() && !loop.to->as<expr::LitU32>() &&
                             !loop.to->as<expr::Atomic>();
    const Value hi = reevaluated ? Value{"h" + std::to_string(next_temp_++), DataType::U32}
                                 : temp_value(DataType::U32, to.text);
    if (reevaluated) line(value_type(DataType::U32) + " " + hi.text + " = " + to.text + ";");
    const std::string counter = "c" + std::to_string(next_temp_++);
    // Half-open: the counter never passes `hi`, so it cannot wrap. It lives
    // outside the `for`, so that the check after the loop can read it.
    line(value_type(DataType::U32) + " " + counter + " = " + lo.text + ";");
    const char* below = mutant_active(Mutant::LoopBoundInclusive) ? " <= " : " < ";
    line("for (; " + counter + below + hi.text + "; ++" + counter + ") {");
    ++indent_;
    if (reevaluated) {
      line(hi.text + " = " + expr(*loop.to).text + ";");
      line("if (" + counter + " >= " + hi.text + ") break;");
    }
    if (if_depth_ > 0) ++loop_under_if_depth_;
    loop_ends_.push_back(counter + " = " + hi.text);
    if (budget_ != 0) {
      // Where no cut-short check follows the loop (OpenCL C), a spent budget
      // leaves the loop, not the kernel: every later check fails at once, the
      // host discards the run (Timeout), and the kernel keeps a single exit.
      // PoCL 3.1 builds a kernel whose loops `return` before a barrier several
      // times slower (L5/random/000018 of seed 1: 3.9 s of CPU at its first
      // enqueue, 1.0 s with `break`), long enough to pass the deadline. GLSL
      // returns: its cut-short check would take a break for a driver's cut.
      const char* leave = buffers_.loop_cut_short().empty() ? " break; }" : " return; }";
      line("if (++vyre_iterations > " + std::to_string(budget_) + "u) { " +
           buffers_.budget_exhausted() + leave);
    }
    // Each iteration's scope: the immutable loop variable, then the body.
    scopes_.emplace_back();
    const std::string var = local_name(loop.var);
    line("const " + value_type(DataType::U32) + " " + var + " = " + counter + ";");
    scopes_.back()[loop.var] = {{var, DataType::U32}, false};
    for (const Node& n : loop.body) node(n);
    scopes_.pop_back();
    loop_ends_.pop_back();
    if (if_depth_ > 0) --loop_under_if_depth_;
    --indent_;
    line("}");
    // Only `hi` ends a loop (Return leaves the entry): a driver that stops
    // loops early (lavapipe, once its loop budget is spent) is reported, not
    // trusted, where the control buffer has a word for it.
    if (const std::string cut = buffers_.loop_cut_short(); !cut.empty())
      line("if (" + counter + " < " + hi.text + ") " + cut);
    --indent_;
    line("}");
  }

  void statement(const node::Return&, SourceLoc) {
    // ReturnInLoopUnderIfBreaks: a structurizer lowers a Return inside a
    // Loop inside an If as finishing that loop (its count run out), so the
    // invocation goes on after the loop.
    if (mutant_active(Mutant::ReturnInLoopUnderIfBreaks) && loop_under_if_depth_ > 0)
      return line("{ " + loop_ends_.back() + "; break; }");
    line("return;");
  }

  void statement(const node::Block& block, SourceLoc) {
    line("{");
    scoped_body(block.body);
    line("}");
  }

  void statement(const node::Barrier&, SourceLoc) {
    if (mutant_active(Mutant::BarrierDropped)) return;
    if (mutant_active(Mutant::BarrierWithoutMemoryFences))
      return line(std::string(d_.barrier.execution));
    for (const std::string& s : barrier_statements(d_)) line(s);
  }

  // ---- expressions

  Value expr(const Expr& e) {
    if (error_) return kNone;
    return std::visit([&](const auto& kind) { return expression(kind, e.loc); }, e.kind);
  }

  Value expression(const expr::LitU32& lit, SourceLoc) {
    if (mutant_active(Mutant::U32LiteralWithoutSuffix))
      return {std::to_string(lit.value), DataType::U32};
    return {std::to_string(lit.value) + "u", DataType::U32};
  }

  Value expression(const expr::LitI32& lit, SourceLoc) {
    if (lit.value >= 0) return {std::to_string(lit.value), DataType::I32};
    uint32_t bits = static_cast<uint32_t>(lit.value);
    if (mutant_active(Mutant::NegativeI32LiteralSignMagnitude))
      bits = 0x80000000u | (0u - static_cast<uint32_t>(lit.value));
    char text[16];
    std::snprintf(text, sizeof text, "0x%08Xu", bits);
    return {expand(d_.negative_i32, {text}), DataType::I32};
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
    const ClikeBuffer* b = buffer(load.buffer, loc);
    const Value index = expr(*load.index);
    if (error_ || !expect_u32(index, "a load index", loc)) return kNone;
    if (!mutant_active(Mutant::LoadReusedAcrossStore))
      return {buffers_.load(*this, {*b, index.text, "", "", AtomicOp::Add}), b->decl->element};
    // LoadReusedAcrossStore: a common-subexpression pass reuses an earlier
    // load of the same buffer and index text still in scope, blind to the
    // stores and atomics between them.
    const std::string key = "#load " + load.buffer + "[" + index.text + "]";
    if (const Binding* cached = lookup(key)) return cached->value;
    const Value v = {buffers_.load(*this, {*b, index.text, "", "", AtomicOp::Add}),
                     b->decl->element};
    scopes_.back()[key] = {v, false};
    return v;
  }

  Value expression(const expr::BufLen& len, SourceLoc loc) {
    const ClikeBuffer* b = buffers_.find(len.buffer);
    if (b == nullptr) {
      fail("unknown buffer `" + printable(len.buffer) + "`", loc);
      return kNone;
    }
    if (mutant_active(Mutant::BufLenInBytes)) {
      return {"(" + b->count + " * " + std::to_string(element_size(b->decl->element)) + "u)",
              DataType::U32};
    }
    return {b->count, DataType::U32};
  }

  Value builtin(Id id, uint32_t axis, SourceLoc loc) {
    if (axis > 2) {
      fail("axis " + std::to_string(axis) + " is not 0, 1 or 2", loc);
      return kNone;
    }
    if (id == Id::Local && mutant_active(Mutant::LocalIdIsGlobal)) id = Id::Invocation;
    if (mutant_active(Mutant::WorkgroupIdYReadsZ) && id == Id::Workgroup && axis == 1) axis = 2;
    if (mutant_active(Mutant::InvocationIdZReadsY) && id == Id::Invocation && axis == 2) axis = 1;
    const std::string_view pattern = id == Id::Invocation  ? d_.ids.invocation
                                     : id == Id::Workgroup ? d_.ids.workgroup
                                                           : d_.ids.local;
    const char digit[] = {static_cast<char>('0' + axis), '\0'};
    const char letter[] = {"xyz"[axis], '\0'};
    return {expand(pattern, {digit, letter}), DataType::U32};
  }

  Value expression(const expr::InvocationId& id, SourceLoc loc) {
    return builtin(Id::Invocation, id.axis, loc);
  }
  Value expression(const expr::WorkgroupId& id, SourceLoc loc) {
    return builtin(Id::Workgroup, id.axis, loc);
  }
  Value expression(const expr::LocalId& id, SourceLoc loc) {
    return builtin(Id::Local, id.axis, loc);
  }

  Value expression(const expr::Binary& bin, SourceLoc loc) {
    const std::vector<Value> v = operands(OrderedOperands::Binary, {&*bin.left, &*bin.right});
    if (error_ || !expect_u32(v[0], "a binary operand", loc) ||
        !expect_u32(v[1], "a binary operand", loc)) {
      return kNone;
    }
    return temp_value(DataType::U32, expand(d_.pattern(bin.op), {v[0].text, v[1].text}));
  }

  Value expression(const expr::Unary& un, SourceLoc loc) {
    const Value x = expr(*un.operand);
    if (error_ || !expect_u32(x, "a unary operand", loc)) return kNone;
    return temp_value(DataType::U32, expand(d_.pattern(un.op), {x.text}));
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
    // Arguments once each, in order; then the composition sees only its
    // parameters, bound to the argument values.
    std::vector<const Expr*> args;
    for (const auto& arg : call.args) args.push_back(&*arg);
    const std::vector<Value> values = operands(OrderedOperands::Call, args);
    std::map<std::string, Binding> params;
    for (size_t i = 0; i < values.size(); ++i) {
      params[std::string(kOpParams[i])] = {values[i], false};
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
    if (mutant_active(Mutant::SelectLazyUnlessAtomicArm) && !sel.if_true->as<expr::Atomic>() &&
        !sel.if_false->as<expr::Atomic>()) {
      return lazy_select(sel, loc);
    }
    const std::vector<Value> v =
        operands(OrderedOperands::Select, {&*sel.cond, &*sel.if_true, &*sel.if_false});
    if (error_) return kNone;
    const auto test = truth(v[0], loc);
    if (!test) return kNone;
    if (v[1].type != v[2].type) {
      fail("select arms differ in type", loc);
      return kNone;
    }
    return temp_value(v[1].type, *test + " ? " + v[1].text + " : " + v[2].text);
  }

  /// SelectLazyUnlessAtomicArm: a purity check that looks only at each arm's
  /// root takes arms without a bare atomic for pure and evaluates only the
  /// chosen one, dropping the side effects of atomics nested in the other.
  Value lazy_select(const expr::Select& sel, SourceLoc loc) {
    const Value cond = expr(*sel.cond);
    if (error_) return kNone;
    const auto test = truth(cond, loc);
    if (!test) return kNone;
    const std::string result = "s" + std::to_string(next_temp_++);
    const size_t declaration = body_.size();
    open_if(*test);
    ++indent_;
    const Value yes = expr(*sel.if_true);
    line(result + " = " + yes.text + ";");
    --indent_;
    line("} else {");
    ++indent_;
    const Value no = expr(*sel.if_false);
    line(result + " = " + no.text + ";");
    --indent_;
    line("}");
    if (error_) return kNone;
    std::string decl(static_cast<size_t>(indent_) * 2, ' ');
    decl += value_type(yes.type) + " " + result + ";\n";
    body_.insert(declaration, decl);
    return {result, yes.type};
  }

  Value expression(const expr::Cast& cast, SourceLoc loc) {
    if (const auto* inner = cast.value->as<expr::Cast>();
        inner != nullptr && mutant_active(Mutant::CastOfCastFolded)) {
      // CastOfCastFolded: a peephole pass drops the inner cast, casting the
      // innermost value straight to the outer target (or not at all), where
      // such a cast exists; otherwise both casts stay.
      const Value source = expr(*inner->value);
      if (error_) return kNone;
      if (source.type == cast.target) return source;
      if (d_.cast_pattern(source.type, cast.target)) return cast_to(source, cast.target, loc);
      return cast_to(cast_to(source, inner->target, loc), cast.target, loc);
    }
    const Value v = expr(*cast.value);
    if (error_) return kNone;
    return cast_to(v, cast.target, loc);
  }

  /// `v` cast to `target`; fails (and gives a placeholder) where no cast exists.
  Value cast_to(const Value& v, DataType target, SourceLoc loc) {
    if (error_) return kNone;
    const auto pattern = d_.cast_pattern(v.type, target);
    if (!pattern) {
      fail("no cast from " + std::string(name_of(v.type)) + " to " + std::string(name_of(target)),
           loc);
      return kNone;
    }
    return temp_value(target, expand(*pattern, {v.text}));
  }

  Value expression(const expr::Atomic& atomic, SourceLoc loc) {
    const ClikeBuffer* b = buffer(atomic.buffer, loc);
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
    const Access access = {*b, index.text, value.text, expected ? expected->text : "", atomic.op};
    return {buffers_.atomic(*this, access), DataType::U32};
  }

  const Program& program_;
  const Dialect& d_;
  BufferAccessor& buffers_;
  const uint32_t budget_;
  const OpRegistry& ops_;
  std::vector<std::map<std::string, Binding>> scopes_;
  std::string body_;
  int indent_ = 0;
  int inline_depth_ = 0;
  /// Ifs open around the statement being lowered (ReturnInLoopUnderIfBreaks).
  int if_depth_ = 0;
  /// Loops open inside some If (ReturnInLoopUnderIfBreaks).
  int loop_under_if_depth_ = 0;
  /// "counter = hi" of each open loop, innermost last (ReturnInLoopUnderIfBreaks).
  std::vector<std::string> loop_ends_;
  uint64_t next_temp_ = 0;
  uint64_t next_local_ = 0;
  std::optional<Error> error_;
};

}  // namespace

Result<std::string> emit_body(const Program& program, const Dialect& dialect,
                              BufferAccessor& buffers, uint32_t loop_iteration_budget,
                              const OpRegistry& ops) {
  return Emitter(program, dialect, buffers, loop_iteration_budget, ops).run();
}

}  // namespace vyre::clike
