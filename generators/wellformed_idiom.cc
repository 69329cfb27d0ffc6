// Expressions in the shapes compiler optimisers rewrite (the patterns of
// NIR's nir_opt_algebraic and LLVM's InstCombine): shift and mask chains,
// min/max idioms, add/sub and multiplication by constants, division and
// modulo by powers of two and their neighbours, casts of casts, and selects
// of comparisons. Operands are edge values (0, 1, 0x7fffffff, 0x80000000,
// 0xffffffff, powers of two and their neighbours), mostly loaded from the
// opaque table so the compiler cannot fold them, and constants are drawn
// to meet each rule's precondition (a power of two for the division rule,
// equal shift amounts for the shift pair). Every operator is total on U32
// (SEMANTICS S3), so each idiom is defined for every operand.
#include "generators/wellformed_context.h"
#include "spec/ir/builder.h"
#include "spec/ir/casts.h"

namespace vyre::wellformed {
namespace {

using namespace build;

/// Edge values of the rules' preconditions: powers of two and their
/// neighbours beside the generator's usual edges.
uint32_t rule_edge(Prng& rng) {
  if (rng.chance(1, 2)) return edge_biased_u32(rng);
  const uint32_t power = uint32_t{1} << rng.below(32);
  switch (rng.below(3)) {
    case 0:
      return power - 1;
    case 1:
      return power;
    default:
      return power + 1;
  }
}

/// An operand: an opaque edge value, a literal edge, or any U32 expression.
ExprPtr operand(Plan& p, int depth) {
  uint32_t value = 0;
  switch (p.rng.below(4)) {
    case 0:
    case 1:
      return opaque_edge(p, value);
    case 2:
      return u32(rule_edge(p.rng));
    default:
      return gen_expr(p, DataType::U32, depth - 1);
  }
}

/// `value`, a constant meeting a rule's precondition; now and then instead
/// an edge value of the opaque table, which the compiler cannot fold.
ExprPtr constant(Plan& p, uint32_t value) {
  if (!p.opaque_buffer.empty() && p.rng.chance(1, 4)) {
    uint32_t opaque = 0;
    return opaque_edge(p, opaque);
  }
  return u32(value);
}

ExprPtr shift_pair(Plan& p, ExprPtr x) {
  const uint32_t c = static_cast<uint32_t>(p.rng.below(34));
  p.note("idiom.shift_pair");
  return p.rng.chance(1, 2) ? shr(shl(std::move(x), u32(c)), u32(c))
                            : shl(shr(std::move(x), u32(c)), u32(c));
}

ExprPtr mask_chain(Plan& p, ExprPtr x, int depth) {
  p.note("idiom.mask");
  const uint32_t a = static_cast<uint32_t>(p.rng.below(32));
  const uint32_t bits = static_cast<uint32_t>(p.rng.between(1, 32));
  const uint32_t mask = bits == 32 ? 0xffffffffu : (uint32_t{1} << bits) - 1;
  switch (p.rng.below(6)) {
    case 0:
      return bit_and(shr(std::move(x), u32(a)), u32(mask));  // bitfield extract
    case 1: {
      ExprPtr y = operand(p, depth);
      return bit_or(bit_and(std::move(x), u32(mask)), bit_and(std::move(y), u32(~mask)));
    }
    case 2:
      return bit_and(x, sub(x, u32(1)));  // clear lowest set bit
    case 3:
      return bit_and(x, unary(UnOp::Negate, x));  // lowest set bit
    case 4:
      return bit_xor(x, shr(x, u32(1)));  // Gray code
    default: {
      // Rotate by r: (x << r) | (x >> (32 - r)); r == 0 shifts by 32 & 31 = 0.
      const uint32_t r = static_cast<uint32_t>(p.rng.below(32));
      return bit_or(shl(x, u32(r)), shr(x, u32(32 - r)));
    }
  }
}

ExprPtr min_max(Plan& p, ExprPtr x, int depth) {
  p.note("idiom.min_max");
  ExprPtr y = operand(p, depth);
  switch (p.rng.below(5)) {
    case 0: {
      // clamp as min(max(x, lo), hi), lo <= hi or not.
      ExprPtr lo = constant(p, rule_edge(p.rng));
      return call("primitive.min",
                  {call("primitive.max", {std::move(x), std::move(lo)}), std::move(y)});
    }
    case 1:
      return select(lt(x, y), x, y);  // min
    case 2:
      return select(gt(x, y), x, y);  // max
    case 3: {
      const uint32_t c = rule_edge(p.rng);
      return select(lt(x, u32(c)), u32(c), x);  // max with a constant
    }
    default:
      return select(eq(x, u32(0)), u32(1), x);  // x == 0 ? 1 : x
  }
}

ExprPtr add_mul(Plan& p, ExprPtr x) {
  p.note("idiom.add_mul");
  const uint32_t c = rule_edge(p.rng);
  const uint32_t k = static_cast<uint32_t>(p.rng.below(32));
  switch (p.rng.below(7)) {
    case 0:
      return sub(add(std::move(x), u32(c)), u32(c));
    case 1:
      return add(add(std::move(x), u32(c)), u32(rule_edge(p.rng)));
    case 2:
      return mul(std::move(x), u32(uint32_t{1} << k));
    case 3:
      return mul(std::move(x), u32((uint32_t{1} << k) + 1));
    case 4:
      return mul(std::move(x), u32((uint32_t{1} << k) - 1));
    case 5:
      return sub(u32(0), std::move(x));
    default:
      return mul(std::move(x), constant(p, c));
  }
}

ExprPtr div_mod(Plan& p, ExprPtr x) {
  p.note("idiom.div_mod");
  const uint32_t k = static_cast<uint32_t>(p.rng.below(32));
  const uint32_t power = uint32_t{1} << k;
  switch (p.rng.below(6)) {
    case 0:
      return div(std::move(x), u32(power));
    case 1:
      return mod(std::move(x), u32(power));
    case 2:
      // Division by a constant neighbour of a power of two (magic numbers).
      return div(std::move(x), u32(p.rng.chance(1, 2) ? power + 1 : power - 1));
    case 3:
      return mod(std::move(x), u32(p.rng.chance(1, 2) ? power + 1 : power - 1));
    case 4:
      // x - (x / c) * c == x % c
      return sub(x, mul(div(x, u32(power)), u32(power)));
    default: {
      ExprPtr c = constant(p, power);  // a divisor the compiler cannot see (0 now and then)
      return div(std::move(x), std::move(c));
    }
  }
}

/// U32 -> t1 [-> t2] -> U32 through valid casts.
ExprPtr cast_chain(Plan& p, ExprPtr x) {
  p.note("idiom.cast_chain");
  constexpr std::array<DataType, 5> kThrough = {DataType::I32, DataType::U64, DataType::Bool,
                                                DataType::Vec2U32, DataType::U32};
  DataType at = DataType::U32;
  const uint64_t steps = p.rng.between(1, 3);
  for (uint64_t i = 0; i < steps; ++i) {
    const DataType next = p.rng.pick<DataType>(kThrough);
    if (cast_verdict(at, next) != CastVerdict::Valid) continue;
    x = cast(next, std::move(x));
    at = next;
  }
  if (at == DataType::U32) return x;
  if (cast_verdict(at, DataType::U32) == CastVerdict::Valid)
    return cast(DataType::U32, std::move(x));
  return cast(DataType::U32, cast(DataType::U64, std::move(x)));
}

ExprPtr compare_chain(Plan& p, ExprPtr x, int depth) {
  p.note("idiom.compare");
  const uint32_t c = rule_edge(p.rng);
  switch (p.rng.below(6)) {
    case 0:
      return eq(lt(std::move(x), u32(c)), u32(1));
    case 1:
      return ne(bit_and(std::move(x), u32(c)), u32(0));
    case 2:
      return eq(bit_and(std::move(x), u32(c)), u32(c));
    case 3:
      return ge(std::move(x), u32(0x80000000u));  // the sign test
    case 4:
      return eq(shr(std::move(x), u32(31)), u32(1));
    default: {
      ExprPtr y = operand(p, depth);
      return select(ne(std::move(x), std::move(y)), u32(1), u32(0));
    }
  }
}

}  // namespace

ExprPtr opaque_edge(Plan& p, uint32_t& value) {
  if (p.opaque_buffer.empty() || p.opaque_values.empty()) {
    value = rule_edge(p.rng);
    return u32(value);
  }
  const uint32_t i = static_cast<uint32_t>(p.rng.below(p.opaque_values.size()));
  value = p.opaque_values[i];
  return load(p.opaque_buffer, u32(i));
}

ExprPtr gen_idiom(Plan& p, int depth) {
  ExprPtr x = operand(p, depth);
  switch (p.rng.below(7)) {
    case 0:
      return shift_pair(p, std::move(x));
    case 1:
      return mask_chain(p, std::move(x), depth);
    case 2:
      return min_max(p, std::move(x), depth);
    case 3:
      return add_mul(p, std::move(x));
    case 4:
      return div_mod(p, std::move(x));
    case 5:
      return cast_chain(p, std::move(x));
    default:
      return compare_chain(p, std::move(x), depth);
  }
}

}  // namespace vyre::wellformed
