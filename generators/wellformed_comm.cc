// Shapes in which invocations of a workgroup communicate, each conforming
// by its own construction (SEMANTICS S6):
// - exchanges (neighbour, tree reduction, prefix scan, bitonic steps with
//   partner lid ^ j) on a dedicated buffer, in workgroup memory or in the
//   workgroup's own region of a storage buffer: each step reads only in one
//   phase and writes only own slots in the next (or, for the reduction,
//   writes slots no one reads in that step), phases separated by barriers at
//   top level, trip counts uniform per workgroup (gen_uniform_u32), so every
//   invocation runs the same barriers;
// - atomic shapes on a dedicated storage buffer with two slots per
//   workgroup: a section only the winner of an atomic runs, writing a value
//   uniform in the workgroup (so who won does not show); an atomic reduction
//   of an order-independent op read after a barrier; a compare-exchange
//   retry loop of n trips for a workgroup of n invocations (each failure
//   means another invocation succeeded, and each succeeds once, so n trips
//   always suffice) applying a commutative op.
// Each result is folded into an own slot of out0. Called at top level of a
// non-last phase only: no Return precedes them.
#include <bit>

#include "generators/wellformed_context.h"
#include "spec/ir/builder.h"

namespace vyre::wellformed {
namespace {

using namespace build;

/// Ops whose combination of a workgroup's values is the same in any order.
constexpr std::array<BinOp, 4> kCommutative = {BinOp::Add, BinOp::BitXor, BinOp::BitOr,
                                               BinOp::BitAnd};

/// ceil(log2(n)): the steps of a tree over n invocations.
uint32_t tree_steps(uint32_t n) {
  return n <= 1 ? 0 : std::bit_width(n - 1);
}

/// `value` folded into an own slot of out0 (`out0[i] = out0[i] ^ value`).
void fold_into_output(Plan& p, Body& out, ExprPtr value) {
  const BufferPlan& o = p.buffer("out0");
  std::string slot = p.fresh_name();
  out.push_back(let(slot, own_slot(p, o)));
  out.push_back(store(o.decl.name, var(slot), bit_xor(load(o.decl.name, var(slot)), value)));
}

/// A trip bound uniform in the workgroup, at most `cap`.
ExprPtr uniform_trips(Plan& p, uint32_t cap) {
  if (p.rng.chance(1, 3)) return u32(cap);
  return call("primitive.min", {gen_uniform_u32(p, 2), u32(cap)});
}

/// Where a shape keeps one invocation's value: its workgroup's region.
struct Region {
  std::string buffer;
  std::string base;  ///< a local holding the region's first index
  uint32_t n = 1;    ///< invocations per workgroup

  ExprPtr at(ExprPtr local) const { return add(var(base), std::move(local)); }
  ExprPtr load_at(ExprPtr local) const { return load(buffer, at(std::move(local))); }
  Node store_at(ExprPtr local, ExprPtr value) const {
    return store(buffer, at(std::move(local)), std::move(value));
  }
};

ExprPtr lid() {
  return var(kLocalIndex);
}

void neighbour(Plan& p, Body& body, const Region& r, BinOp op) {
  p.note("comm.neighbour");
  const uint32_t d = r.n <= 1 ? 0 : static_cast<uint32_t>(p.rng.between(1, r.n - 1));
  ExprPtr distance = p.rng.chance(1, 2) ? u32(d) : gen_uniform_u32(p, 1);
  std::string got = p.fresh_name();
  body.push_back(let(got, r.load_at(mod(add(lid(), std::move(distance)), u32(r.n)))));
  body.push_back(barrier());
  body.push_back(r.store_at(lid(), binary(op, r.load_at(lid()), var(got))));
  body.push_back(barrier());
}

void tree_reduction(Plan& p, Body& body, const Region& r, BinOp op, const std::string& k) {
  p.note("comm.reduce");
  std::string s = p.fresh_name();
  body.push_back(let(s, shl(u32(1), var(k))));
  // Writers (lid % 2s == 0) read lid + s, which no writer of this step owns.
  ExprPtr active = and_(eq(bit_and(lid(), sub(shl(var(s), u32(1)), u32(1))), u32(0)),
                        lt(add(lid(), var(s)), u32(r.n)));
  body.push_back(
      if_(std::move(active),
          {r.store_at(lid(), binary(op, r.load_at(lid()), r.load_at(add(lid(), var(s)))))}));
  body.push_back(barrier());
}

void prefix_scan(Plan& p, Body& body, const Region& r, BinOp op, const std::string& k) {
  p.note("comm.scan");
  std::string s = p.fresh_name();
  std::string t = p.fresh_name();
  body.push_back(let(s, shl(u32(1), var(k))));
  body.push_back(let(t, u32(0)));
  body.push_back(if_(ge(lid(), var(s)), {assign(t, r.load_at(sub(lid(), var(s))))}));
  body.push_back(barrier());
  body.push_back(r.store_at(lid(), binary(op, r.load_at(lid()), var(t))));
  body.push_back(barrier());
}

void bitonic(Plan& p, Body& body, const Region& r, const std::string& k) {
  p.note("comm.bitonic");
  const uint32_t steps = std::max<uint32_t>(1, tree_steps(r.n));
  std::string j = p.fresh_name(), q = p.fresh_name(), mine = p.fresh_name(), other = p.fresh_name(),
              ascending = p.fresh_name();
  body.push_back(let(j, shl(u32(1), mod(var(k), u32(steps)))));
  body.push_back(let(q, bit_xor(lid(), var(j))));
  body.push_back(let(mine, r.load_at(lid())));
  body.push_back(let(other, var(mine)));
  // A partner past a workgroup that is not a power of two keeps its value.
  body.push_back(if_(lt(var(q), u32(r.n)), {assign(other, r.load_at(var(q)))}));
  body.push_back(
      let(ascending, eq(eq(bit_and(lid(), shl(var(j), u32(1))), u32(0)), lt(lid(), var(q)))));
  body.push_back(barrier());
  body.push_back(
      r.store_at(lid(), select(var(ascending), call("primitive.min", {var(mine), var(other)}),
                               call("primitive.max", {var(mine), var(other)}))));
  body.push_back(barrier());
}

void atomic_section(Plan& p, Body& out, const std::string& a) {
  p.note("atomic.section");
  ExprPtr flag = mul(var(kWorkgroupIndex), u32(2));
  ExprPtr result = add(mul(var(kWorkgroupIndex), u32(2)), u32(1));
  const uint32_t f = p.atomic_flag;
  ExprPtr won;
  switch (p.rng.below(3)) {
    case 0:
      won = eq(atomic(AtomicOp::Add, a, flag, u32(1)), u32(f));
      break;
    case 1:
      won = eq(atomic(AtomicOp::Exchange, a, flag, u32(f + 1)), u32(f));
      break;
    default:
      won = eq(compare_exchange(a, flag, u32(f), u32(~f)), u32(f));
      break;
  }
  // The winner's value is uniform in the workgroup: who won does not show.
  out.push_back(if_(std::move(won), {store(a, result, gen_uniform_u32(p, 3))}));
  out.push_back(barrier());
  fold_into_output(p, out, load(a, add(mul(var(kWorkgroupIndex), u32(2)), u32(1))));
}

void atomic_reduction(Plan& p, Body& out, const std::string& a) {
  p.note("atomic.reduction");
  constexpr std::array<AtomicOp, 6> kOrderFree = {AtomicOp::Add, AtomicOp::Or,  AtomicOp::And,
                                                  AtomicOp::Xor, AtomicOp::Min, AtomicOp::Max};
  // The returned value depends on the order; no statement ever reads it.
  // Drawn one by one, in the order GCC evaluated the arguments (last first).
  ExprPtr value = gen_expr(p, DataType::U32, draw_expr_depth(p));
  const AtomicOp op = p.rng.pick<AtomicOp>(kOrderFree);
  out.push_back(
      let(p.fresh_name(), atomic(op, a, mul(var(kWorkgroupIndex), u32(2)), std::move(value))));
  out.push_back(barrier());
  fold_into_output(p, out, load(a, mul(var(kWorkgroupIndex), u32(2))));
}

void compare_exchange_loop(Plan& p, Body& out, const std::string& a) {
  p.note("atomic.cas_loop");
  const BinOp op = p.rng.pick<BinOp>(kCommutative);
  std::string v = p.fresh_name(), done = p.fresh_name(), trip = p.fresh_name(),
              cur = p.fresh_name(), got = p.fresh_name();
  ExprPtr slot = mul(var(kWorkgroupIndex), u32(2));
  out.push_back(let(v, gen_expr(p, DataType::U32, draw_expr_depth(p))));
  out.push_back(let(done, u32(0)));
  Body attempt = {let(cur, atomic(AtomicOp::Or, a, slot, u32(0))),
                  let(got, compare_exchange(a, slot, var(cur), binary(op, var(cur), var(v)))),
                  if_(eq(var(got), var(cur)), {assign(done, u32(1))})};
  out.push_back(loop(trip, u32(0), u32(p.invocations_per_workgroup()),
                     {if_(eq(var(done), u32(0)), std::move(attempt))}));
  out.push_back(barrier());
  fold_into_output(p, out, load(a, slot));
}

}  // namespace

void plan_shape_buffers(Plan& p) {
  const uint32_t n = p.invocations_per_workgroup();
  if (p.features.opaque_constants) {
    BufferPlan& b = add_buffer(p, "opq", Role::Uniform, BufferAccess::Uniform, DataType::U32);
    const uint32_t words = static_cast<uint32_t>(p.rng.between(4, 16));
    for (uint32_t i = 0; i < words; ++i) {
      const uint32_t power = uint32_t{1} << p.rng.below(32);
      const uint32_t neighbour = p.rng.chance(1, 2) ? power - 1 : power + 1;
      b.fixed_words.push_back(p.rng.chance(1, 2)   ? edge_biased_u32(p.rng)
                              : p.rng.chance(1, 2) ? power
                                                   : neighbour);
    }
    b.elements = words;
    if (p.rng.chance(1, 3)) b.decl.count = words;
    p.opaque_buffer = b.decl.name;
    p.opaque_values = b.fixed_words;
  }
  if (p.features.path_trace) {
    BufferPlan& b = add_buffer(p, "trace", Role::Dedicated, BufferAccess::ReadWrite, DataType::U32);
    p.trace_slots = static_cast<uint32_t>(p.rng.between(3, 8));
    b.elements = p.total_invocations() * p.trace_slots;
    p.trace_buffer = b.decl.name;
  }
  if (p.features.communication) {
    const uint32_t count = static_cast<uint32_t>(p.rng.between(1, 2));
    for (uint32_t i = 0; i < count; ++i) {
      // Workgroup memory while it fits Vulkan's guaranteed 16 KiB.
      const bool shared = p.rng.chance(1, 2) && p.workgroup_bytes + 4 * n <= 16384;
      const std::string name = (shared ? "xwg" : "xst") + std::to_string(i);
      BufferPlan& b =
          add_buffer(p, name, Role::Dedicated,
                     shared ? BufferAccess::Workgroup : BufferAccess::ReadWrite, DataType::U32);
      b.elements = shared ? n : n * p.workgroups();
      if (shared) {
        b.decl.count = n;
        p.workgroup_bytes += 4 * n;
      }
      p.exchange_buffers.push_back(name);
    }
  }
  if (p.features.atomic_sections) {
    p.atomic_flag = edge_biased_u32(p.rng);
    const uint32_t count = static_cast<uint32_t>(p.rng.between(1, 2));
    for (uint32_t i = 0; i < count; ++i) {
      const std::string name = "atm" + std::to_string(i);
      BufferPlan& b = add_buffer(p, name, Role::Dedicated, BufferAccess::ReadWrite, DataType::U32);
      b.elements = 2 * p.workgroups();
      for (uint32_t w = 0; w < p.workgroups(); ++w) {
        b.fixed_words.push_back(p.atomic_flag);
        b.fixed_words.push_back(edge_biased_u32(p.rng));
      }
      p.atomic_buffers.push_back(name);
    }
  }
}

void gen_communication(Plan& p, Body& out) {
  if (p.exchange_buffers.empty()) return;
  Region r;
  r.buffer = p.exchange_buffers.front();
  p.exchange_buffers.erase(p.exchange_buffers.begin());
  r.n = p.invocations_per_workgroup();
  const bool shared = p.buffer(r.buffer).decl.access == BufferAccess::Workgroup;
  p.note(shared ? "comm.workgroup_memory" : "comm.storage");
  r.base = p.fresh_name();
  out.push_back(let(r.base, shared ? u32(0) : mul(var(kWorkgroupIndex), u32(r.n))));
  // Each invocation starts its slot, then every step runs in lock step.
  out.push_back(r.store_at(lid(), gen_expr(p, DataType::U32, draw_expr_depth(p))));
  out.push_back(barrier());
  const BinOp op = p.rng.pick<BinOp>(kCommutative);
  const uint32_t steps = tree_steps(r.n);
  std::string k = p.fresh_name();
  Body body;
  ExprPtr trips;
  switch (p.rng.below(4)) {
    case 0:
      trips = add(u32(1), mod(gen_uniform_u32(p, 2), u32(3)));
      neighbour(p, body, r, op);
      break;
    case 1:
      trips = uniform_trips(p, steps);
      tree_reduction(p, body, r, op, k);
      break;
    case 2:
      trips = uniform_trips(p, steps);
      prefix_scan(p, body, r, op, k);
      break;
    default:
      trips = uniform_trips(p, std::max<uint32_t>(1, steps * (steps + 1) / 2));
      bitonic(p, body, r, k);
      break;
  }
  out.push_back(loop(k, u32(0), std::move(trips), std::move(body)));
  // No trip at all leaves the start's writes unseparated from the reads below.
  out.push_back(barrier());
  ExprPtr slot = p.rng.chance(1, 3) ? u32(0) : mod(add(lid(), gen_uniform_u32(p, 1)), u32(r.n));
  fold_into_output(p, out, r.load_at(std::move(slot)));
}

void gen_atomic_shape(Plan& p, Body& out) {
  if (p.atomic_buffers.empty()) return;
  const std::string a = p.atomic_buffers.front();
  p.atomic_buffers.erase(p.atomic_buffers.begin());
  // The retry loop runs n trips of n invocations: small workgroups only.
  const bool small = p.invocations_per_workgroup() <= 32;
  switch (p.rng.below(small ? 3 : 2)) {
    case 0:
      atomic_section(p, out, a);
      break;
    case 1:
      atomic_reduction(p, out, a);
      break;
    default:
      compare_exchange_loop(p, out, a);
      break;
  }
}

}  // namespace vyre::wellformed
