// The statement half of the well-formed generator: the prologue locals, the
// phases of the entry body, and the barriers between them. Barriers stand
// only where control is uniform (top level, or a uniform If or Loop that
// reaches one on every path), and Return only where no barrier follows, or
// under a uniform condition, so V010 and the dynamic divergence check hold.
#include <algorithm>

#include "generators/wellformed_context.h"
#include "spec/ir/builder.h"

namespace vyre::wellformed {
namespace {

using namespace build;

int expr_depth(Plan& p) {
  return draw_expr_depth(p);
}

/// Multiplies the open loops' trip product by a loop's bound while its body
/// is generated.
class TripScope {
 public:
  TripScope(Plan& p, uint32_t trips) : p_(p), saved_(p.trip_product) {
    p.trip_product *= std::max<uint32_t>(1, trips);
  }
  ~TripScope() { p_.trip_product = saved_; }
  TripScope(const TripScope&) = delete;
  TripScope& operator=(const TripScope&) = delete;

 private:
  Plan& p_;
  uint32_t saved_;
};

/// x + y * nx + z * nx * ny over one kind of id: an index unique to each
/// invocation of the grid (gid) or of its workgroup (lid).
template <typename Id>
ExprPtr linear_index(Id id, std::array<uint32_t, 3> extent, bool multi_axis) {
  if (!multi_axis) return id(0);
  return add(add(id(0), mul(id(1), u32(extent[0]))), mul(id(2), u32(extent[0] * extent[1])));
}

Body gen_scoped_body(Plan& p, int nesting, bool may_return) {
  Body body;
  p.open_scope();
  gen_statements(p, body, nesting, may_return, static_cast<int>(p.rng.between(1, 4)));
  p.close_scope();
  return body;
}

Node gen_let(Plan& p) {
  const std::vector<DataType> types = p.value_types();
  const DataType type = p.rng.chance(1, 2) ? DataType::U32 : p.rng.pick<DataType>(types);
  ExprPtr value = gen_expr(p, type, expr_depth(p));
  std::string name = p.fresh_name();
  p.declare(name, type, true);
  return let(std::move(name), std::move(value));
}

Node gen_assign(Plan& p, const Local& target) {
  return assign(target.name, gen_expr(p, target.type, expr_depth(p)));
}

/// A store this invocation may make without a race: an own slot, or an
/// index past the end of any writable buffer.
Node gen_store(Plan& p) {
  std::vector<const BufferPlan*> targets;
  for (const BufferPlan& b : p.buffers) {
    const bool own = b.role == Role::Own || (b.role == Role::Workgroup && b.writable_phase);
    const bool oob_only =
        (b.role == Role::Counter || b.role == Role::Workgroup) && p.features.out_of_bounds;
    if (own || oob_only) targets.push_back(&b);
  }
  const BufferPlan& b = *p.rng.pick<const BufferPlan*>(targets);
  const bool own = b.role == Role::Own || (b.role == Role::Workgroup && b.writable_phase);
  ExprPtr index = own && !(p.features.out_of_bounds && p.rng.chance(1, 8))
                      ? own_slot(p, b)
                      : out_of_bounds_index(p, b, true);
  return store(b.decl.name, std::move(index), gen_expr(p, b.decl.element, expr_depth(p)));
}

/// Loop bounds with a data-dependent trip count of at most 6.
Node gen_loop(Plan& p, int nesting, bool may_return) {
  const int depth = expr_depth(p);
  ExprPtr from = p.rng.chance(1, 2) ? u32(static_cast<uint32_t>(p.rng.below(3)))
                                    : mod(gen_expr(p, DataType::U32, depth), u32(3));
  ExprPtr to;
  switch (p.rng.below(4)) {
    case 0:
      to = u32(static_cast<uint32_t>(p.rng.below(7)));
      break;
    case 1:
      to = mod(gen_expr(p, DataType::U32, depth), u32(7));
      break;
    case 2:
      to = call("primitive.min", {gen_expr(p, DataType::U32, depth), u32(6)});
      break;
    default:
      to = call("primitive.clamp", {gen_expr(p, DataType::U32, depth), u32(1), u32(5)});
      break;
  }
  std::string name = p.fresh_name();
  p.open_scope();
  p.declare(name, DataType::U32, false);
  Body body;
  {
    const TripScope trips(p, 6);
    gen_statements(p, body, nesting + 1, may_return, static_cast<int>(p.rng.between(1, 4)));
  }
  p.close_scope();
  return loop(std::move(name), std::move(from), std::move(to), std::move(body));
}

/// Buffers with U32 own slots this invocation may both store and load.
std::vector<const BufferPlan*> own_u32_targets(const Plan& p) {
  std::vector<const BufferPlan*> out;
  for (const BufferPlan& b : p.buffers) {
    const bool own = b.role == Role::Own || (b.role == Role::Workgroup && b.writable_phase);
    if (own && b.decl.element == DataType::U32) out.push_back(&b);
  }
  return out;
}

/// `if (c) { loop v in 0..n { ...; [if (v == k)] return; } }` then an own-slot
/// store: an invocation that returns in the loop must skip the store, so a
/// Return lowered as leaving only the loop shows. Only where Return may stand
/// (no barrier follows), so control may diverge.
void gen_return_in_loop(Plan& p, Body& out, int nesting) {
  ExprPtr cond = gen_condition(p, expr_depth(p));
  const uint32_t trips = static_cast<uint32_t>(p.rng.between(1, 4));
  ExprPtr to = p.rng.chance(1, 2)
                   ? u32(trips)
                   : call("primitive.clamp", {gen_expr(p, DataType::U32, 2), u32(1), u32(trips)});
  p.open_scope();  // the If's arm
  std::string name = p.fresh_name();
  p.open_scope();  // the loop's body
  p.declare(name, DataType::U32, false);
  Body body;
  {
    const TripScope scope(p, trips);
    gen_statements(p, body, nesting + 2, false, static_cast<int>(p.rng.below(3)));
  }
  if (p.rng.chance(1, 2)) {
    body.push_back(ret());
  } else {
    // Returns on some trip (the first always runs), after earlier trips' work.
    const uint32_t k = static_cast<uint32_t>(p.rng.below(trips));
    body.push_back(if_(eq(var(name), u32(k)), {ret()}));
  }
  p.close_scope();
  p.close_scope();
  out.push_back(
      if_(std::move(cond), {loop(std::move(name), u32(0), std::move(to), std::move(body))}));
  const auto targets = own_u32_targets(p);
  if (targets.empty()) return;
  const BufferPlan& b = *p.rng.pick<const BufferPlan*>(targets);
  ExprPtr index = own_slot(p, b);
  out.push_back(store(b.decl.name, std::move(index), gen_expr(p, DataType::U32, expr_depth(p))));
}

/// Read-modify-write of one own slot through one index expression, the same
/// tree each time (mostly a named immutable local): `let a = b[i]; b[i] = a op
/// e; b[i] = b[i] op f`. The second load must see the store, so a lowering
/// that reuses the first load across it shows. Own slots keep it race-free.
void gen_reload_after_store(Plan& p, Body& out, int nesting) {
  const auto targets = own_u32_targets(p);
  if (targets.empty()) return;
  const BufferPlan& b = *p.rng.pick<const BufferPlan*>(targets);
  ExprPtr index = own_slot(p, b);
  if (p.rng.chance(3, 4)) {
    std::string slot = p.fresh_name();
    out.push_back(let(slot, std::move(index)));
    p.declare(slot, DataType::U32, false);
    index = var(std::move(slot));
  }
  std::string first = p.fresh_name();
  out.push_back(let(first, load(b.decl.name, index)));
  p.declare(first, DataType::U32, true);
  gen_statements(p, out, nesting, false, static_cast<int>(p.rng.below(2)));
  // A change the store surely makes (x + k or x ^ 2^k), or any value.
  ExprPtr changed;
  switch (p.rng.below(3)) {
    case 0:
      changed = add(var(first), u32(static_cast<uint32_t>(p.rng.between(1, 7))));
      break;
    case 1:
      changed = bit_xor(var(first), u32(1u << p.rng.below(32)));
      break;
    default:
      changed = gen_expr(p, DataType::U32, expr_depth(p));
      break;
  }
  out.push_back(store(b.decl.name, index, std::move(changed)));
  gen_statements(p, out, nesting, false, static_cast<int>(p.rng.below(2)));
  // Each a bijection of the loaded value, so a stale load shows in the result.
  constexpr std::array<BinOp, 3> kCombine = {BinOp::Add, BinOp::BitXor, BinOp::Sub};
  ExprPtr value =
      gen_expr(p, DataType::U32, expr_depth(p));  // Then the operator, as GCC drew them.
  ExprPtr again = binary(p.rng.pick<BinOp>(kCombine), load(b.decl.name, index), std::move(value));
  out.push_back(store(b.decl.name, std::move(index), std::move(again)));
}

/// A barrier every invocation of the workgroup reaches at least once.
Node gen_barrier(Plan& p) {
  switch (p.rng.below(4)) {
    case 0:
      return barrier();
    case 1:
      return block({barrier()});
    case 2:
      return if_(gen_uniform_u32(p, 2), {barrier()}, {barrier()});
    default: {
      // 1 or 2 trips, uniform: 1 + (u % 2).
      std::string name = p.fresh_name();
      p.closed_names.push_back(name);
      return loop(std::move(name), u32(0), add(u32(1), mod(gen_uniform_u32(p, 2), u32(2))),
                  {barrier()});
    }
  }
}

void set_workgroup_phase(Plan& p) {
  for (BufferPlan& b : p.buffers) {
    if (b.role == Role::Workgroup) b.writable_phase = p.rng.chance(1, 2);
  }
}

}  // namespace

void gen_statements(Plan& p, Body& out, int nesting, bool may_return, int length) {
  const bool can_nest = nesting < static_cast<int>(p.max_nesting);
  // A loop nested in open loops multiplies their trips; past the cap, none.
  const bool can_loop = can_nest && p.trip_product * 6 <= p.max_trip_product;
  for (int i = 0; i < length && p.budget > 0; ++i) {
    --p.budget;
    const auto assignable = p.locals_of(DataType::U32, true);
    std::vector<const Local*> any_assignable;
    for (DataType t : p.value_types()) {
      for (const Local* l : p.locals_of(t, true)) any_assignable.push_back(l);
    }
    // Weights: let, assign, store, if, loop, block, return, return in a loop
    // under an If, reload after store, path nest, opaque guard.
    const std::array<uint64_t, 11> weights = {
        4,
        any_assignable.empty() ? 0u : 3u,
        5,
        can_nest && p.features.ifs ? 2u : 0u,
        can_loop && p.features.loops ? 2u : 0u,
        can_nest && p.features.blocks ? 1u : 0u,
        may_return && p.features.early_return ? 2u : 0u,
        can_loop && may_return && p.features.return_in_loop ? 1u : 0u,
        p.features.reload_after_store ? 1u : 0u,
        can_nest && p.features.path_trace && p.trip_product <= p.max_trip_product / 4 ? 1u : 0u,
        can_nest && p.features.opaque_constants ? 1u : 0u};
    uint64_t total = 0;
    for (uint64_t w : weights) total += w;
    uint64_t pick = p.rng.below(total);
    size_t kind = 0;
    while (pick >= weights[kind]) pick -= weights[kind++];
    switch (kind) {
      case 0:
        out.push_back(gen_let(p));
        break;
      case 1:
        out.push_back(gen_assign(p, *p.rng.pick<const Local*>(any_assignable)));
        break;
      case 2:
        out.push_back(gen_store(p));
        break;
      case 3: {
        ExprPtr cond = gen_condition(p, expr_depth(p));
        Body then_body = gen_scoped_body(p, nesting + 1, may_return);
        Body otherwise = p.rng.chance(1, 2) ? gen_scoped_body(p, nesting + 1, may_return) : Body{};
        out.push_back(if_(std::move(cond), std::move(then_body), std::move(otherwise)));
        break;
      }
      case 4:
        out.push_back(gen_loop(p, nesting, may_return));
        break;
      case 5:
        out.push_back(block(gen_scoped_body(p, nesting + 1, may_return)));
        break;
      case 6:
        // Nothing may follow a Return in its body (V031).
        out.push_back(ret());
        return;
      case 7:
        gen_return_in_loop(p, out, nesting);
        break;
      case 8:
        gen_reload_after_store(p, out, nesting);
        break;
      case 9:
        gen_path_nest(p, out, nesting, may_return);
        break;
      default:
        gen_opaque_guard(p, out, nesting, may_return);
        break;
    }
  }
}

int draw_expr_depth(Plan& p) {
  return static_cast<int>(p.rng.between(1, p.max_expr_depth));
}

Body gen_entry(Plan& p) {
  Body entry;
  p.open_scope();
  const auto total =
      std::array<uint32_t, 3>{p.workgroup_size[0] * p.grid[0], p.workgroup_size[1] * p.grid[1],
                              p.workgroup_size[2] * p.grid[2]};
  entry.push_back(let(kGlobalIndex, linear_index([](uint32_t a) { return build::invocation_id(a); },
                                                 total, p.features.multi_axis)));
  p.declare(kGlobalIndex, DataType::U32, false);
  if (p.features.workgroup_ids) {
    entry.push_back(let(kLocalIndex, linear_index([](uint32_t a) { return build::local_id(a); },
                                                  p.workgroup_size, p.features.multi_axis)));
    p.declare(kLocalIndex, DataType::U32, false);
    entry.push_back(
        let(kWorkgroupIndex, linear_index([](uint32_t a) { return build::workgroup_id(a); }, p.grid,
                                          p.features.multi_axis)));
    p.declare(kWorkgroupIndex, DataType::U32, false);
  }
  if (!p.trace_buffer.empty()) gen_trace_prologue(entry);
  const int phases = p.features.barriers ? static_cast<int>(p.rng.between(2, 4)) : 1;
  p.budget = static_cast<int>(p.rng.between(p.max_statements / 3, p.max_statements));
  for (int phase = 0; phase < phases; ++phase) {
    const bool last = phase + 1 == phases;
    set_workgroup_phase(p);
    if (last && p.features.early_return && p.rng.chance(1, 3)) {
      // A partial grid: invocations past n do nothing more.
      const uint32_t n = static_cast<uint32_t>(p.rng.between(1, p.total_invocations()));
      entry.push_back(if_(ge(var(kGlobalIndex), u32(n)), {ret()}));
    }
    const int share = std::max(1, p.budget / (phases - phase));
    gen_statements(p, entry, 0, last, share);
    if (entry.back().as<node::Return>() != nullptr) break;
    if (last) break;
    // Communication in uniform control flow, before any Return: a
    // non-last phase has none.
    if (p.features.communication && p.rng.chance(2, 3)) gen_communication(p, entry);
    if (p.features.atomic_sections && p.rng.chance(1, 2)) gen_atomic_shape(p, entry);
    if (p.features.early_return && p.rng.chance(1, 4)) {
      // Whole workgroups leave together; the barrier stays uniform.
      entry.push_back(if_(gen_uniform_u32(p, 2), {ret()}));
    }
    entry.push_back(gen_barrier(p));
  }
  p.close_scope();
  return entry;
}

}  // namespace vyre::wellformed
