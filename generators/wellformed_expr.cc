// The expression half of the well-formed generator. Every expression it
// makes is typed as SEMANTICS.md S2 says, and every memory access in it is
// race-free by the role of its buffer (wellformed_context.h).
#include <functional>

#include "generators/wellformed_context.h"
#include "spec/ir/builder.h"
#include "spec/ir/casts.h"
#include "spec/ir/op_registry.h"

namespace vyre::wellformed {
namespace {

using namespace build;

/// The inlinable ops a Call may name, with their arity.
const std::vector<const OpSpec*>& callable_ops() {
  static const std::vector<const OpSpec*> ops = [] {
    std::vector<const OpSpec*> out;
    for (const OpSpec& op : OpRegistry::standard().ops()) {
      if (op.inlinable) out.push_back(&op);
    }
    return out;
  }();
  return ops;
}

/// One weighted option of a choice.
struct Option {
  uint32_t weight;
  std::function<ExprPtr()> make;
};

ExprPtr choose(Prng& rng, const std::vector<Option>& options) {
  uint64_t total = 0;
  for (const Option& o : options) total += o.weight;
  uint64_t pick = rng.below(total);
  for (const Option& o : options) {
    if (pick < o.weight) return o.make();
    pick -= o.weight;
  }
  return options.back().make();
}

/// Buffers whose elements of `type` this invocation may load.
std::vector<const BufferPlan*> loadable(const Plan& p, DataType type, bool uniform_only) {
  std::vector<const BufferPlan*> out;
  for (const BufferPlan& b : p.buffers) {
    if (b.decl.element != type || b.role == Role::Counter || b.role == Role::Raw ||
        b.role == Role::Dedicated)
      continue;
    if (uniform_only && b.role != Role::Input && b.role != Role::Uniform) continue;
    out.push_back(&b);
  }
  return out;
}

/// An index anywhere: mostly wrapped into the buffer, sometimes raw, and
/// sometimes just past the end.
ExprPtr any_index(Plan& p, const BufferPlan& b, bool uniform_only,
                  const std::function<ExprPtr()>& inner) {
  const uint64_t pick = p.rng.below(10);
  if (p.features.out_of_bounds && pick == 0) return out_of_bounds_index(p, b, !uniform_only);
  if (p.features.out_of_bounds && pick == 1) return inner();
  if (b.elements == 0) return u32(0);
  if ((b.elements & (b.elements - 1)) == 0 && p.rng.chance(1, 2)) {
    return bit_and(inner(), u32(b.elements - 1));
  }
  return mod(inner(), u32(b.elements));
}

ExprPtr index_for(Plan& p, const BufferPlan& b, int depth, bool uniform_only) {
  if (b.role == Role::Own || (b.role == Role::Workgroup && b.writable_phase)) {
    if (p.features.out_of_bounds && p.rng.chance(1, 8)) return out_of_bounds_index(p, b, true);
    return own_slot(p, b);
  }
  return any_index(p, b, uniform_only, [&] {
    return uniform_only ? gen_uniform_u32(p, depth - 1) : gen_expr(p, DataType::U32, depth - 1);
  });
}

ExprPtr gen_load(Plan& p, DataType type, int depth, bool uniform_only) {
  const auto buffers = loadable(p, type, uniform_only);
  const BufferPlan& b = *p.rng.pick<const BufferPlan*>(buffers);
  return load(b.decl.name, index_for(p, b, depth, uniform_only));
}

ExprPtr literal_of(Plan& p, DataType type) {
  switch (type) {
    case DataType::I32:
      return i32(static_cast<int32_t>(edge_biased_u32(p.rng)));
    case DataType::Bool:
      return boolean(p.rng.chance(1, 2));
    default:
      return u32(edge_biased_u32(p.rng));
  }
}

/// Masks a contended atomic's schedule-dependent result to zero, keeping
/// its side effect in the expression's evaluation order.
ExprPtr masked(Plan& p, ExprPtr atomic_result) {
  switch (p.rng.below(4)) {
    case 0:
      return mul(std::move(atomic_result), u32(0));
    case 1:
      return bit_and(std::move(atomic_result), u32(0));
    case 2:
      return call("primitive.min", {std::move(atomic_result), u32(0)});
    default:
      return select(boolean(false), std::move(atomic_result), u32(0));
  }
}

ExprPtr gen_atomic(Plan& p, int depth) {
  std::vector<const BufferPlan*> targets;
  for (const BufferPlan& b : p.buffers) {
    const bool own =
        b.role == Role::Own && b.decl.element == DataType::U32 && p.features.own_atomics;
    if (own || b.role == Role::Counter) targets.push_back(&b);
  }
  const BufferPlan& b = *p.rng.pick<const BufferPlan*>(targets);
  if (b.role == Role::Own) {
    const AtomicOp op = p.rng.pick<AtomicOp>(all_atomic_ops());
    ExprPtr index = p.features.out_of_bounds && p.rng.chance(1, 8) ? out_of_bounds_index(p, b, true)
                                                                   : own_slot(p, b);
    if (op == AtomicOp::CompareExchange) {
      ExprPtr expected = gen_expr(p, DataType::U32, depth - 1);
      return compare_exchange(b.decl.name, std::move(index), std::move(expected),
                              gen_expr(p, DataType::U32, depth - 1));
    }
    return atomic(op, b.decl.name, std::move(index), gen_expr(p, DataType::U32, depth - 1));
  }
  ExprPtr index = any_index(p, b, false, [&] { return gen_expr(p, DataType::U32, depth - 1); });
  if (b.counter_op == AtomicOp::CompareExchange) {
    return masked(p, compare_exchange(b.decl.name, std::move(index), u32(b.counter_expected),
                                      u32(b.counter_value)));
  }
  ExprPtr value = b.counter_op == AtomicOp::Exchange ? u32(b.counter_value)
                                                     : gen_expr(p, DataType::U32, depth - 1);
  return masked(p, atomic(b.counter_op, b.decl.name, std::move(index), std::move(value)));
}

ExprPtr gen_cast_to(Plan& p, DataType target, int depth) {
  std::vector<DataType> sources;
  for (DataType t : p.value_types()) {
    // At depth 0 only U32 sources, so chains of casts end.
    if (depth <= 0 && t != DataType::U32) continue;
    if (t != target || p.rng.chance(1, 4)) {
      if (cast_verdict(t, target) == CastVerdict::Valid) sources.push_back(t);
    }
  }
  if (sources.empty()) sources.push_back(target);
  return cast(target, gen_expr(p, p.rng.pick<DataType>(sources), depth - 1));
}

ExprPtr gen_id(Plan& p) {
  const uint32_t axis = p.features.multi_axis ? static_cast<uint32_t>(p.rng.below(3)) : 0;
  if (!p.features.workgroup_ids) return invocation_id(axis);
  switch (p.rng.below(3)) {
    case 0:
      return invocation_id(axis);
    case 1:
      return workgroup_id(axis);
    default:
      return local_id(axis);
  }
}

ExprPtr gen_var(Plan& p, DataType type) {
  const auto locals = p.locals_of(type, false);
  return var(p.rng.pick<const Local*>(locals)->name);
}

ExprPtr gen_u32(Plan& p, int depth) {
  const bool leaf = depth <= 0;
  const bool has_var = !p.locals_of(DataType::U32, false).empty();
  std::vector<Option> options = {
      {4, [&] { return u32(edge_biased_u32(p.rng)); }},
      {2, [&] { return gen_id(p); }},
      {2, [&] { return buflen(p.rng.pick<BufferPlan>(p.buffers).decl.name); }},
  };
  if (has_var) options.push_back({5, [&] { return gen_var(p, DataType::U32); }});
  if (leaf) return choose(p.rng, options);
  options.push_back({3, [&] { return gen_load(p, DataType::U32, depth, false); }});
  options.push_back({6, [&] {
                       const BinOp op = p.rng.pick<BinOp>(all_bin_ops());
                       ExprPtr l = gen_u32(p, depth - 1);
                       return binary(op, std::move(l), gen_u32(p, depth - 1));
                     }});
  options.push_back({3, [&] {
                       // Operand first, then the operator: arguments' order of evaluation is
                       // unspecified, and GCC's (last first) is the one the seeds pin.
                       ExprPtr operand = gen_u32(p, depth - 1);
                       return unary(p.rng.pick<UnOp>(all_un_ops()), std::move(operand));
                     }});
  if (p.features.calls) {
    options.push_back({3, [&] {
                         const OpSpec* op = p.rng.pick<const OpSpec*>(callable_ops());
                         std::vector<ExprPtr> args;
                         for (uint32_t i = 0; i < op->arity; ++i)
                           args.push_back(gen_u32(p, depth - 1));
                         return call(op->id, std::move(args));
                       }});
  }
  if (p.features.selects) {
    options.push_back({2, [&] {
                         ExprPtr c = gen_condition(p, depth - 1);
                         ExprPtr t = gen_u32(p, depth - 1);
                         return select(std::move(c), std::move(t), gen_u32(p, depth - 1));
                       }});
  }
  if (p.features.casts && p.features.wide_types) {
    options.push_back({3, [&] { return gen_cast_to(p, DataType::U32, depth); }});
  }
  if (p.features.own_atomics || p.features.contended_atomics) {
    options.push_back({2, [&] { return gen_atomic(p, depth); }});
  }
  if (p.features.rule_idioms) options.push_back({3, [&] { return gen_idiom(p, depth); }});
  return choose(p.rng, options);
}

}  // namespace

ExprPtr gen_expr(Plan& p, DataType type, int depth) {
  if (type == DataType::U32) return gen_u32(p, depth);
  std::vector<Option> options;
  if (type == DataType::I32 || type == DataType::Bool) {
    options.push_back({2, [&] { return literal_of(p, type); }});
  }
  if (!p.locals_of(type, false).empty()) options.push_back({4, [&] { return gen_var(p, type); }});
  if (depth > 0 && !loadable(p, type, false).empty()) {
    options.push_back({3, [&] { return gen_load(p, type, depth, false); }});
  }
  if (depth > 0 && p.features.selects) {
    options.push_back({1, [&] {
                         ExprPtr c = gen_condition(p, depth - 1);
                         ExprPtr t = gen_expr(p, type, depth - 1);
                         return select(std::move(c), std::move(t), gen_expr(p, type, depth - 1));
                       }});
  }
  // A cast is always possible (from U32 into every value type), so it is
  // also the fallback at depth 0.
  options.push_back({options.empty() ? 1u : 3u, [&] { return gen_cast_to(p, type, depth); }});
  return choose(p.rng, options);
}

ExprPtr gen_condition(Plan& p, int depth) {
  if (p.features.wide_types && p.rng.chance(1, 3)) return gen_expr(p, DataType::Bool, depth);
  if (p.rng.chance(1, 2) && depth > 0) {
    constexpr std::array<BinOp, 8> kCompare = {BinOp::Eq, BinOp::Ne, BinOp::Lt,  BinOp::Gt,
                                               BinOp::Le, BinOp::Ge, BinOp::And, BinOp::Or};
    ExprPtr l = gen_u32(p, depth - 1);
    ExprPtr r = gen_u32(p, depth - 1);  // Before the operator, as GCC evaluated it.
    return binary(p.rng.pick<BinOp>(kCompare), std::move(l), std::move(r));
  }
  return gen_u32(p, depth);
}

ExprPtr gen_uniform_u32(Plan& p, int depth) {
  std::vector<Option> options = {
      {3, [&] { return u32(edge_biased_u32(p.rng)); }},
      {1, [&] { return buflen(p.rng.pick<BufferPlan>(p.buffers).decl.name); }},
  };
  if (p.features.workgroup_ids) {
    options.push_back({2, [&] {
                         const uint32_t axis =
                             p.features.multi_axis ? static_cast<uint32_t>(p.rng.below(3)) : 0;
                         return workgroup_id(axis);
                       }});
  }
  if (depth > 0) {
    options.push_back({3, [&] {
                         ExprPtr l = gen_uniform_u32(p, depth - 1);
                         ExprPtr r = gen_uniform_u32(p, depth - 1);  // Then the operator.
                         return binary(p.rng.pick<BinOp>(all_bin_ops()), std::move(l),
                                       std::move(r));
                       }});
    options.push_back({2, [&] { return gen_load(p, DataType::U32, depth, true); }});
  }
  return choose(p.rng, options);
}

ExprPtr own_slot(Plan& p, const BufferPlan& b) {
  const char* index = b.role == Role::Workgroup ? kLocalIndex : kGlobalIndex;
  if (p.rng.chance(1, 6)) {
    // Either of two own slots, picked by any condition: still race-free.
    ExprPtr cond = gen_condition(p, 1);
    ExprPtr first = own_slot(p, b);
    return select(std::move(cond), std::move(first), own_slot(p, b));
  }
  const uint32_t slot = static_cast<uint32_t>(p.rng.below(b.slots));
  // Several spellings of index * slots + slot, so lowerings of each meet.
  if (b.slots == 1)
    return slot == 0 && p.rng.chance(1, 2) ? var(index) : add(var(index), u32(slot));
  if (b.slots == 2 && p.rng.chance(1, 2)) return bit_or(shl(var(index), u32(1)), u32(slot));
  return add(mul(var(index), u32(b.slots)), u32(slot));
}

ExprPtr out_of_bounds_index(Plan& p, const BufferPlan& b, bool allow_locals) {
  // Just past the end (where a packed backend keeps the next buffer) or far.
  switch (p.rng.below(allow_locals ? 5 : 3)) {
    case 0:
      return u32(b.elements);
    case 1:
      return u32(b.elements + static_cast<uint32_t>(p.rng.between(1, 8)));
    case 2:
      return u32(p.rng.chance(1, 2) ? 0xffffffffu : 0x80000000u);
    case 3:
      return add(var(kGlobalIndex), u32(b.elements));
    default:
      // At least 2^31, past every buffer, whatever the expression.
      return bit_or(gen_expr(p, DataType::U32, 2), u32(0x80000000u));
  }
}

}  // namespace vyre::wellformed
