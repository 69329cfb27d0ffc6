#include "reference/exec/lane_compiler.h"

#include <bit>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "reference/ops/cast_ops.h"
#include "spec/validate/validator.h"

namespace vyre::reference {
namespace {

/// A name in scope: its register, type, and whether it is a loop variable.
struct Binding {
  std::string name;
  Reg reg;
  DataType type = DataType::U32;
  bool loop_variable = false;
};

/// The per-nesting-depth registers of If and Loop (one active node per depth).
struct DepthRegs {
  BranchRegs branch;
  Reg start;
  Reg trip_count;
  Reg iteration_mask;
};

/// Registers a value of any type can use: the widest value has 4 words.
constexpr uint32_t kMaxValueWords = 4;

class Compiler {
 public:
  Compiler(const Program& program, const OpRegistry& ops, std::span<const uint64_t> counts)
      : program_(program), ops_(ops), counts_(counts) {}

  Result<LaneProgram> compile() {
    scopes_.emplace_back();
    LaneBody body = statements(program_.entry, 0);
    if (error_) return *error_;
    LaneProgram out;
    out.body = std::move(body);
    out.permanent_registers = next_permanent_;
    out.temp_registers = max_temp_;
    out.constants = std::move(constants_);
    out.has_barrier = has_barrier_;
    out.uses_id = uses_id_;
    out.access_sites = std::move(access_sites_);
    return out;
  }

 private:
  // ----- registers -----
  Reg permanent(uint32_t words) {
    const Reg r{next_permanent_, false};
    next_permanent_ += words;
    return r;
  }
  Reg temp(uint32_t words) {
    const Reg r{sp_, true};
    sp_ += words;
    max_temp_ = std::max(max_temp_, sp_);
    return r;
  }
  Reg constant(DataType type, std::array<uint32_t, 4> value) {
    const auto key = std::make_pair(static_cast<uint8_t>(type), value);
    if (auto it = constant_regs_.find(key); it != constant_regs_.end()) return it->second;
    const uint32_t words = word_count(type);
    const Reg r = permanent(words);
    constants_.push_back({r.index, words, value});
    constant_regs_.emplace(key, r);
    return r;
  }
  const DepthRegs& depth_regs(uint32_t depth) {
    while (depth_regs_.size() <= depth) {
      DepthRegs d;
      d.branch = {permanent(1), permanent(1)};
      d.start = permanent(1);
      d.trip_count = permanent(1);
      d.iteration_mask = permanent(1);
      depth_regs_.push_back(d);
    }
    return depth_regs_[depth];
  }

  // ----- access sites -----
  /// The index of (buffer, kind, loc) in access_sites_, added on first sight:
  /// an inlined call compiles its nodes again at the same site.
  uint32_t access_site(uint32_t buffer, AccessKind kind, SourceLoc loc) {
    const auto key = std::make_tuple(buffer, kind, loc.line, loc.col);
    const auto [it, added] = site_index_.try_emplace(key, uint32_t(access_sites_.size()));
    if (added) access_sites_.push_back({buffer, kind, loc});
    return it->second;
  }

  // ----- errors -----
  std::nullptr_t fail(SourceLoc loc, std::string problem) {
    if (!error_) {
      error_ = Error{"vyre reference: cannot run the program: " + problem +
                         ". Fix: correct the program (the validator should have reported this).",
                     loc};
    }
    return nullptr;
  }

  // ----- names -----
  const Binding* lookup(std::string_view name) const {
    if (params_ != nullptr) {
      for (const Binding& b : *params_) {
        if (b.name == name) return &b;
      }
      return nullptr;
    }
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      for (const Binding& b : *scope) {
        if (b.name == name) return &b;
      }
    }
    return nullptr;
  }
  std::optional<uint32_t> buffer_index(std::string_view name) const {
    for (size_t i = 0; i < program_.buffers.size(); ++i) {
      if (program_.buffers[i].name == name) return static_cast<uint32_t>(i);
    }
    return std::nullopt;
  }
  bool bind(std::string name, Reg reg, DataType type, bool loop_variable, SourceLoc loc) {
    if (lookup(name) != nullptr) {
      fail(loc, "local `" + name + "` shadows another binding in scope");
      return false;
    }
    scopes_.back().push_back({std::move(name), reg, type, loop_variable});
    return true;
  }

  // ----- expressions -----
  LaneExprPtr u32_operand(const ExprPtr& e, std::string_view role) {
    LaneExprPtr x = expr(e);
    if (x && x->type() != DataType::U32) {
      return fail(x->loc(), std::string(role) + " must be `u32`, got `" +
                                std::string(name_of(x->type())) + "`");
    }
    return x;
  }

  LaneExprPtr expr(const ExprPtr& e) {
    if (error_) return nullptr;
    if (!e) return fail({}, "an expression is missing");
    if (++expr_depth_ > kMaxExpressionDepth) {
      --expr_depth_;
      return fail(e->loc, "expressions nest deeper than " + std::to_string(kMaxExpressionDepth));
    }
    LaneExprPtr out = std::visit([&](const auto& kind) { return compile(kind, e->loc); }, e->kind);
    --expr_depth_;
    return out;
  }

  LaneExprPtr compile(const expr::LitU32& x, SourceLoc loc) {
    return make_register_read(DataType::U32, constant(DataType::U32, {x.value}), loc);
  }
  LaneExprPtr compile(const expr::LitI32& x, SourceLoc loc) {
    return make_register_read(DataType::I32,
                              constant(DataType::I32, {std::bit_cast<uint32_t>(x.value)}), loc);
  }
  LaneExprPtr compile(const expr::LitBool& x, SourceLoc loc) {
    return make_register_read(DataType::Bool, constant(DataType::Bool, {x.value ? 1u : 0u}), loc);
  }
  LaneExprPtr compile(const expr::Var& x, SourceLoc loc) {
    const Binding* b = lookup(x.name);
    if (b == nullptr) return fail(loc, "variable `" + x.name + "` is not declared");
    return make_register_read(b->type, b->reg, loc);
  }
  LaneExprPtr compile(const expr::Load& x, SourceLoc loc) {
    const std::optional<uint32_t> buffer = buffer_index(x.buffer);
    if (!buffer) return fail(loc, "load from unknown buffer `" + x.buffer + "`");
    const DataType element = program_.buffers[*buffer].element;
    if (element == DataType::Bytes || !is_stable(element)) {
      return fail(loc, "load from buffer `" + x.buffer + "` of element type `" +
                           std::string(name_of(element)) + "`");
    }
    const uint32_t mark = sp_;
    const Reg dest = temp(word_count(element));
    LaneExprPtr index = u32_operand(x.index, "a load index");
    sp_ = mark + word_count(element);
    if (!index) return nullptr;
    return make_load(element, *buffer, access_site(*buffer, AccessKind::Read, loc),
                     std::move(index), dest, loc);
  }
  LaneExprPtr compile(const expr::BufLen& x, SourceLoc loc) {
    const std::optional<uint32_t> buffer = buffer_index(x.buffer);
    if (!buffer) return fail(loc, "buflen of unknown buffer `" + x.buffer + "`");
    const uint32_t count = static_cast<uint32_t>(counts_[*buffer]);
    return make_register_read(DataType::U32, constant(DataType::U32, {count}), loc);
  }
  LaneExprPtr id(uint32_t base, uint32_t axis, SourceLoc loc) {
    if (axis > 2) return fail(loc, "id axis " + std::to_string(axis) + " is not 0, 1 or 2");
    uses_id_[base + axis] = true;
    return make_register_read(DataType::U32, Reg{base + axis, false}, loc);
  }
  LaneExprPtr compile(const expr::InvocationId& x, SourceLoc loc) {
    return id(kInvocationIdReg, x.axis, loc);
  }
  LaneExprPtr compile(const expr::WorkgroupId& x, SourceLoc loc) {
    return id(kWorkgroupIdReg, x.axis, loc);
  }
  LaneExprPtr compile(const expr::LocalId& x, SourceLoc loc) {
    return id(kLocalIdReg, x.axis, loc);
  }
  LaneExprPtr compile(const expr::Binary& x, SourceLoc loc) {
    const uint32_t mark = sp_;
    const Reg dest = temp(1);
    LaneExprPtr left = u32_operand(x.left, "a binary operation's left operand");
    LaneExprPtr right = u32_operand(x.right, "a binary operation's right operand");
    sp_ = mark + 1;
    if (!left || !right) return nullptr;
    return make_binary(x.op, std::move(left), std::move(right), dest, loc);
  }
  LaneExprPtr compile(const expr::Unary& x, SourceLoc loc) {
    const uint32_t mark = sp_;
    const Reg dest = temp(1);
    LaneExprPtr operand = u32_operand(x.operand, "a unary operation's operand");
    sp_ = mark + 1;
    if (!operand) return nullptr;
    return make_unary(x.op, std::move(operand), dest, loc);
  }
  LaneExprPtr compile(const expr::Select& x, SourceLoc loc) {
    const uint32_t mark = sp_;
    const Reg dest = temp(kMaxValueWords);
    LaneExprPtr cond = expr(x.cond);
    LaneExprPtr if_true = expr(x.if_true);
    LaneExprPtr if_false = expr(x.if_false);
    sp_ = mark + kMaxValueWords;
    if (!cond || !if_true || !if_false) return nullptr;
    if (cond->type() != DataType::U32 && cond->type() != DataType::Bool) {
      return fail(loc, "a select condition must be `u32` or `bool`");
    }
    if (if_true->type() != if_false->type()) return fail(loc, "select arms differ in type");
    return make_select(std::move(cond), std::move(if_true), std::move(if_false), dest, loc);
  }
  LaneExprPtr compile(const expr::Cast& x, SourceLoc loc) {
    const uint32_t mark = sp_;
    const uint32_t words = word_count(x.target);
    const Reg dest = temp(words);
    LaneExprPtr value = expr(x.value);
    sp_ = mark + words;
    if (!value) return nullptr;
    const std::optional<CastRecipe> recipe = cast_recipe(value->type(), x.target);
    if (!recipe) {
      return fail(loc, "no cast from `" + std::string(name_of(value->type())) + "` to `" +
                           std::string(name_of(x.target)) + "`");
    }
    return make_cast(x.target, *recipe, std::move(value), dest, loc);
  }
  LaneExprPtr compile(const expr::Atomic& x, SourceLoc loc) {
    const std::optional<uint32_t> buffer = buffer_index(x.buffer);
    if (!buffer) return fail(loc, "atomic on unknown buffer `" + x.buffer + "`");
    const BufferDecl& decl = program_.buffers[*buffer];
    if (decl.access != BufferAccess::ReadWrite || decl.element != DataType::U32) {
      return fail(loc, "atomic on `" + x.buffer + "`, which is not a read_write u32 buffer");
    }
    if ((x.op == AtomicOp::CompareExchange) != (x.expected != nullptr)) {
      return fail(loc, "`expected` must be given for compare_exchange and only for it");
    }
    const uint32_t mark = sp_;
    const Reg dest = temp(1);
    LaneExprPtr index = u32_operand(x.index, "an atomic index");
    LaneExprPtr expected = x.expected ? u32_operand(x.expected, "an atomic's expected") : nullptr;
    LaneExprPtr value = u32_operand(x.value, "an atomic's value");
    sp_ = mark + 1;
    if (!index || !value || (x.expected && !expected)) return nullptr;
    return make_atomic(x.op, *buffer, access_site(*buffer, AccessKind::Atomic, loc),
                       std::move(index), std::move(expected), std::move(value), dest, loc);
  }
  LaneExprPtr compile(const expr::Call& x, SourceLoc loc) {
    const OpSpec* op = ops_.find(x.op_id);
    if (op == nullptr) return fail(loc, "call to unknown op `" + x.op_id + "`");
    if (!op->inlinable || !op->composition) {
      return fail(loc, "call to non-inlinable op `" + x.op_id + "`");
    }
    if (op->arity != x.args.size() || op->arity > std::size(kOpParams)) {
      return fail(loc, "op `" + x.op_id + "` takes " + std::to_string(op->arity) +
                           " arguments, got " + std::to_string(x.args.size()));
    }
    if (call_depth_ >= kMaxCallDepth) {
      return fail(loc, "calls nest deeper than " + std::to_string(kMaxCallDepth));
    }
    const uint32_t mark = sp_;
    const Reg dest = temp(kMaxValueWords);
    std::vector<Reg> param_regs;
    for (size_t i = 0; i < x.args.size(); ++i) param_regs.push_back(temp(kMaxValueWords));
    const uint32_t args_top = sp_;
    std::vector<LaneExprPtr> args;
    std::vector<Binding> params;
    for (size_t i = 0; i < x.args.size(); ++i) {
      LaneExprPtr arg = expr(x.args[i]);
      sp_ = args_top;  // each argument is copied out before the next runs
      if (!arg) return nullptr;
      params.push_back({std::string(kOpParams[i]), param_regs[i], arg->type(), false});
      args.push_back(std::move(arg));
    }
    // The composition sees its parameters only, never the caller's locals.
    const std::vector<Binding>* caller_params = params_;
    params_ = &params;
    ++call_depth_;
    LaneExprPtr body = expr(op->composition);
    --call_depth_;
    params_ = caller_params;
    sp_ = mark + kMaxValueWords;
    if (!body) return nullptr;
    return make_inlined_call(std::move(args), std::move(param_regs), std::move(body), dest, loc);
  }

  // ----- statements -----
  LaneBody statements(const Body& body, uint32_t depth) {
    LaneBody out;
    if (++nesting_ > kMaxStatementDepth) {
      --nesting_;
      fail(body.empty() ? SourceLoc{} : body.front().loc,
           "statements nest deeper than " + std::to_string(kMaxStatementDepth));
      return out;
    }
    for (const Node& n : body) {
      if (error_) break;
      sp_ = 0;  // temporaries live for one statement
      LaneStmtPtr s =
          std::visit([&](const auto& kind) { return compile(kind, n.loc, depth); }, n.kind);
      if (s) out.push_back(std::move(s));
    }
    --nesting_;
    return out;
  }
  LaneBody scoped(const Body& body, uint32_t depth) {
    scopes_.emplace_back();
    LaneBody out = statements(body, depth);
    scopes_.pop_back();
    return out;
  }

  LaneStmtPtr compile(const node::Let& x, SourceLoc loc, uint32_t) {
    LaneExprPtr value = expr(x.value);
    if (!value) return nullptr;
    const Reg slot = permanent(value->words());
    if (!bind(x.name, slot, value->type(), false, loc)) return nullptr;
    return make_let(slot, std::move(value), loc);
  }
  LaneStmtPtr compile(const node::Assign& x, SourceLoc loc, uint32_t) {
    const Binding* b = lookup(x.name);
    if (b == nullptr) return fail(loc, "assignment to undeclared variable `" + x.name + "`");
    if (b->loop_variable) return fail(loc, "assignment to loop variable `" + x.name + "`");
    const Reg slot = b->reg;
    const DataType type = b->type;
    LaneExprPtr value = expr(x.value);
    if (!value) return nullptr;
    if (value->type() != type) {
      return fail(loc, "assignment of a `" + std::string(name_of(value->type())) + "` to `" +
                           x.name + "` of type `" + std::string(name_of(type)) + "`");
    }
    return make_assign(slot, std::move(value), loc);
  }
  LaneStmtPtr compile(const node::Store& x, SourceLoc loc, uint32_t) {
    const std::optional<uint32_t> buffer = buffer_index(x.buffer);
    if (!buffer) return fail(loc, "store to unknown buffer `" + x.buffer + "`");
    const BufferDecl& decl = program_.buffers[*buffer];
    if (!is_writable(decl.access))
      return fail(loc, "store to non-writable buffer `" + x.buffer + "`");
    if (decl.element == DataType::Bytes || !is_stable(decl.element)) {
      return fail(loc, "store to buffer `" + x.buffer + "` of element type `" +
                           std::string(name_of(decl.element)) + "`");
    }
    LaneExprPtr index = u32_operand(x.index, "a store index");
    LaneExprPtr value = expr(x.value);
    if (!index || !value) return nullptr;
    if (value->type() != decl.element) {
      return fail(loc, "store of a `" + std::string(name_of(value->type())) + "` into `" +
                           x.buffer + "` of element type `" + std::string(name_of(decl.element)) +
                           "`");
    }
    return make_store(*buffer, access_site(*buffer, AccessKind::Write, loc), std::move(index),
                      std::move(value), loc);
  }
  LaneStmtPtr compile(const node::If& x, SourceLoc loc, uint32_t depth) {
    LaneExprPtr cond = expr(x.cond);
    if (!cond) return nullptr;
    if (cond->type() != DataType::U32 && cond->type() != DataType::Bool) {
      return fail(loc, "an if condition must be `u32` or `bool`");
    }
    const BranchRegs regs = depth_regs(depth).branch;
    LaneBody then_body = scoped(x.then_body, depth + 1);
    LaneBody otherwise = scoped(x.otherwise, depth + 1);
    return make_if(std::move(cond), std::move(then_body), std::move(otherwise), regs, loc);
  }
  LaneStmtPtr compile(const node::Loop& x, SourceLoc loc, uint32_t depth) {
    LaneExprPtr from = u32_operand(x.from, "a loop bound");
    LaneExprPtr to = u32_operand(x.to, "a loop bound");
    if (!from || !to) return nullptr;
    const DepthRegs& d = depth_regs(depth);
    const LoopRegs regs{d.start, d.trip_count, d.iteration_mask, permanent(1)};
    scopes_.emplace_back();
    LaneBody body;
    if (bind(x.var, regs.variable, DataType::U32, true, loc)) body = statements(x.body, depth + 1);
    scopes_.pop_back();
    return make_loop(std::move(from), std::move(to), std::move(body), regs, loc);
  }
  LaneStmtPtr compile(const node::Return&, SourceLoc loc, uint32_t) { return make_return(loc); }
  LaneStmtPtr compile(const node::Block& x, SourceLoc loc, uint32_t depth) {
    return make_block(scoped(x.body, depth), loc);
  }
  LaneStmtPtr compile(const node::Barrier&, SourceLoc loc, uint32_t) {
    has_barrier_ = true;
    return make_barrier(loc);
  }

  const Program& program_;
  const OpRegistry& ops_;
  std::span<const uint64_t> counts_;
  std::optional<Error> error_;

  uint32_t next_permanent_ = kFirstFreeReg;
  uint32_t sp_ = 0;
  uint32_t max_temp_ = 0;
  std::vector<ConstantRegister> constants_;
  std::map<std::pair<uint8_t, std::array<uint32_t, 4>>, Reg> constant_regs_;
  std::vector<DepthRegs> depth_regs_;

  std::vector<std::vector<Binding>> scopes_;
  const std::vector<Binding>* params_ = nullptr;
  uint32_t call_depth_ = 0;
  uint32_t expr_depth_ = 0;
  uint32_t nesting_ = 0;
  bool has_barrier_ = false;
  std::array<bool, 9> uses_id_ = {};
  std::vector<AccessSite> access_sites_;
  std::map<std::tuple<uint32_t, AccessKind, uint32_t, uint32_t>, uint32_t> site_index_;
};

}  // namespace

Result<LaneProgram> compile_program(const Program& program, const OpRegistry& ops,
                                    std::span<const uint64_t> element_counts) {
  return Compiler(program, ops, element_counts).compile();
}

}  // namespace vyre::reference
