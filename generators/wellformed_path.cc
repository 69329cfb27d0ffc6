// Control flow checked by a path oracle, and guards decided by the opaque
// table. A path nest is a random nest of If, Loop and Return whose
// decisions read input buffers; each of its blocks records its id in the
// invocation's own trace slots (gid * K .. gid * K + K - 1 of `trace`): the
// first K - 2 ids in order, the latest in slot K - 2, and an FNV-1a hash of
// the whole path in slot K - 1, so a backend that takes a wrong branch shows
// it in the output even where the values it computes agree. Nests hold no
// barrier (their control flow diverges: V010) and Return only where the
// caller allows it (no barrier follows).
#include "generators/wellformed_context.h"
#include "spec/ir/builder.h"

namespace vyre::wellformed {
namespace {

using namespace build;

constexpr uint32_t kFnvOffset = 0x811c9dc5u;
constexpr uint32_t kFnvPrime = 16777619u;

/// The statements that record block `id` in the trace slots.
void record(Plan& p, Body& out, uint32_t id) {
  const uint32_t k = p.trace_slots;
  ExprPtr base = mul(var(kGlobalIndex), u32(k));
  out.push_back(store(p.trace_buffer,
                      add(base, call("primitive.min", {var(kTracePointer), u32(k - 2)})), u32(id)));
  out.push_back(assign(kTraceHash, mul(bit_xor(var(kTraceHash), u32(id)), u32(kFnvPrime))));
  out.push_back(store(p.trace_buffer, add(base, u32(k - 1)), var(kTraceHash)));
  out.push_back(assign(kTracePointer, add(var(kTracePointer), u32(1))));
}

/// A U32 read of an input buffer at an index that varies per invocation.
ExprPtr input_word(Plan& p) {
  std::vector<const BufferPlan*> inputs;
  for (const BufferPlan& b : p.buffers) {
    if (b.role == Role::Input && b.decl.element == DataType::U32) inputs.push_back(&b);
  }
  const BufferPlan& b = *p.rng.pick<const BufferPlan*>(inputs);
  // Drawn one by one, in the order GCC evaluated the arguments (last first):
  // that order is unspecified, and the seeds pin GCC's.
  ExprPtr offset = p.rng.chance(1, 2) ? var(kTracePointer) : u32(p.rng.next_u32() & 7);
  const auto stride = static_cast<uint32_t>(p.rng.between(1, 3));
  ExprPtr index = add(mul(var(kGlobalIndex), u32(stride)), std::move(offset));
  return load(b.decl.name, mod(std::move(index), u32(std::max<uint32_t>(1, b.elements))));
}

/// A decision on an input word: a comparison with an edge value or a bit test.
ExprPtr decision(Plan& p) {
  ExprPtr word = input_word(p);
  switch (p.rng.below(4)) {
    case 0:
      return lt(std::move(word), u32(edge_biased_u32(p.rng)));
    case 1:
      return ne(bit_and(std::move(word), u32(uint32_t{1} << p.rng.below(32))), u32(0));
    case 2:
      return eq(mod(std::move(word), u32(3)), u32(static_cast<uint32_t>(p.rng.below(3))));
    default:
      return ge(std::move(word), input_word(p));
  }
}

/// The body of one block of the nest: its record, then a few items.
Body path_block(Plan& p, int nesting, bool may_return) {
  Body out;
  p.open_scope();
  record(p, out, p.next_block++);
  // Each block spends a statement of the budget, so nests stay bounded.
  --p.budget;
  const bool can_nest = nesting < static_cast<int>(p.max_nesting) && p.budget > 0;
  const int items = static_cast<int>(p.rng.between(1, 3));
  for (int i = 0; i < items; ++i) {
    const uint64_t kind = p.rng.below(6);
    if (kind <= 1 && can_nest) {
      ExprPtr cond = decision(p);
      Body then_body = path_block(p, nesting + 1, may_return);
      Body otherwise = p.rng.chance(2, 3) ? path_block(p, nesting + 1, may_return) : Body{};
      out.push_back(if_(std::move(cond), std::move(then_body), std::move(otherwise)));
    } else if (kind == 2 && can_nest && p.trip_product * 4 <= p.max_trip_product) {
      std::string v = p.fresh_name();
      ExprPtr to = mod(input_word(p), u32(4));
      const uint32_t saved = p.trip_product;
      p.trip_product *= 4;
      p.open_scope();
      p.declare(v, DataType::U32, false);
      Body body = path_block(p, nesting + 1, may_return);
      p.close_scope();
      p.trip_product = saved;
      out.push_back(loop(std::move(v), u32(0), std::move(to), std::move(body)));
    } else if (kind == 3 && may_return) {
      p.note("path.return");
      out.push_back(if_(decision(p), {ret()}));
    } else if (kind == 4 && may_return && i + 1 == items) {
      p.note("path.return");
      out.push_back(ret());  // nothing may follow a Return in its body (V031)
    } else {
      gen_statements(p, out, nesting, false, 1);
    }
  }
  p.close_scope();
  return out;
}

/// Statements that would change the output, and race, if they ever ran:
/// stores at slots other invocations own.
Body junk(Plan& p, bool may_return) {
  Body out;
  for (const BufferPlan& b : p.buffers) {
    if (b.role != Role::Own || b.elements == 0 || !p.rng.chance(1, 2)) continue;
    ExprPtr value = gen_expr(p, b.decl.element, 2);  // Before the slot, as GCC drew them.
    out.push_back(
        store(b.decl.name, u32(static_cast<uint32_t>(p.rng.below(b.elements))), std::move(value)));
  }
  if (may_return && p.rng.chance(1, 3)) out.push_back(ret());
  if (out.empty()) {
    const BufferPlan& o = p.buffer("out0");
    out.push_back(store(o.decl.name, u32(0), u32(p.rng.next_u32())));
  }
  return out;
}

}  // namespace

void gen_trace_prologue(Body& out) {
  out.push_back(let(kTracePointer, u32(0)));
  out.push_back(let(kTraceHash, u32(kFnvOffset)));
}

void gen_path_nest(Plan& p, Body& out, int nesting, bool may_return) {
  if (p.trace_buffer.empty()) return;
  p.note("path.nest");
  Body block = path_block(p, nesting + 1, may_return);
  out.push_back(build::block(std::move(block)));
}

void gen_opaque_guard(Plan& p, Body& out, int nesting, bool may_return) {
  if (p.opaque_buffer.empty()) return;
  const uint32_t i = static_cast<uint32_t>(p.rng.below(p.opaque_values.size()));
  const uint32_t value = p.opaque_values[i];
  // A value the word is not: a neighbour of it.
  const uint32_t other = value + static_cast<uint32_t>(p.rng.between(1, 3));
  ExprPtr word = load(p.opaque_buffer, u32(i));
  p.open_scope();
  Body live;
  gen_statements(p, live, nesting + 1, may_return, static_cast<int>(p.rng.between(1, 3)));
  p.close_scope();
  if (p.rng.chance(1, 2)) {
    p.note("opaque.dead_branch");
    // if (word != value) { junk } else { live }, or its mirror.
    if (p.rng.chance(1, 2)) {
      out.push_back(if_(ne(word, u32(value)), junk(p, may_return), std::move(live)));
    } else {
      out.push_back(if_(eq(word, u32(other)), junk(p, may_return), std::move(live)));
    }
  } else {
    p.note("opaque.live_branch");
    out.push_back(if_(eq(word, u32(value)), std::move(live)));
  }
}

}  // namespace vyre::wellformed
