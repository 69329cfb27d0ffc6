// TEST ORACLE ONLY: a second implementation of every operator and primitive,
// written with different algorithms from scalar_ops.h / primitive_ops.h (bit
// loops, 64-bit arithmetic, long division) so that a shared mistake is
// unlikely. The tests compare the two on exhaustive and seeded inputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "spec/ir/types.h"

namespace vyre::reference::independent {

/// Ripple-carry addition, one bit at a time.
inline uint32_t add(uint32_t a, uint32_t b) {
  uint32_t sum = 0;
  uint32_t carry = 0;
  for (int i = 0; i < 32; ++i) {
    const uint32_t x = (a >> i) & 1u;
    const uint32_t y = (b >> i) & 1u;
    sum |= (x ^ y ^ carry) << i;
    carry = (x & y) | (x & carry) | (y & carry);
  }
  return sum;
}
/// Two's complement by bit inversion plus one.
inline uint32_t negate(uint32_t x) {
  uint32_t inverted = 0;
  for (int i = 0; i < 32; ++i) inverted |= (((x >> i) & 1u) ^ 1u) << i;
  return add(inverted, 1u);
}
/// a + (-b).
inline uint32_t sub(uint32_t a, uint32_t b) {
  return add(a, negate(b));
}
/// Shift-and-add over the bits of b.
inline uint32_t mul(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (int i = 0; i < 32; ++i) {
    if ((b >> i) & 1u) product = add(product, static_cast<uint32_t>(uint64_t{a} << i));
  }
  return product;
}
/// Quotient and remainder by restoring long division; nullopt for b == 0.
struct DivMod {
  uint32_t quotient;
  uint32_t remainder;
};
inline std::optional<DivMod> long_division(uint32_t a, uint32_t b) {
  if (b == 0) return std::nullopt;
  uint64_t remainder = 0;
  uint32_t quotient = 0;
  for (int i = 31; i >= 0; --i) {
    remainder = (remainder << 1) | ((a >> i) & 1u);
    if (remainder >= b) {
      remainder -= b;
      quotient |= 1u << i;
    }
  }
  return DivMod{quotient, static_cast<uint32_t>(remainder)};
}
/// Shift by (b mod 32) one position at a time.
inline uint32_t shl(uint32_t a, uint32_t b) {
  for (uint32_t i = 0; i < b % 32; ++i) a = static_cast<uint32_t>(uint64_t{a} * 2);
  return a;
}
inline uint32_t shr(uint32_t a, uint32_t b) {
  for (uint32_t i = 0; i < b % 32; ++i) a /= 2;
  return a;
}
/// Signed 64-bit difference decides the unsigned order.
inline int64_t compare(uint32_t a, uint32_t b) {
  return int64_t{a} - int64_t{b};
}
/// Per-bit logic through a truth table of the two bits.
inline uint32_t bitwise(uint32_t a, uint32_t b, unsigned truth_table) {
  uint32_t out = 0;
  for (int i = 0; i < 32; ++i) {
    const unsigned row = (((a >> i) & 1u) << 1) | ((b >> i) & 1u);
    out |= ((truth_table >> row) & 1u) << i;
  }
  return out;
}
inline uint32_t popcount(uint32_t x) {
  uint32_t n = 0;
  for (; x != 0; x &= x - 1) ++n;
  return n;
}
inline uint32_t clz(uint32_t x) {
  uint32_t n = 0;
  for (int i = 31; i >= 0 && ((x >> i) & 1u) == 0; --i) ++n;
  return n;
}
inline uint32_t ctz(uint32_t x) {
  uint32_t n = 0;
  for (int i = 0; i < 32 && ((x >> i) & 1u) == 0; ++i) ++n;
  return n;
}
inline uint32_t reverse_bits(uint32_t x) {
  uint32_t out = 0;
  for (int i = 0; i < 32; ++i) out |= ((x >> i) & 1u) << (31 - i);
  return out;
}

/// Every BinOp, by the algorithms above.
inline uint32_t bin(BinOp op, uint32_t a, uint32_t b) {
  switch (op) {
    case BinOp::Add:
      return add(a, b);
    case BinOp::Sub:
      return sub(a, b);
    case BinOp::Mul:
      return mul(a, b);
    case BinOp::Div: {
      const auto d = long_division(a, b);
      return d ? d->quotient : 0u;
    }
    case BinOp::Mod: {
      const auto d = long_division(a, b);
      return d ? d->remainder : 0u;
    }
    case BinOp::BitAnd:
      return bitwise(a, b, 0b1000);
    case BinOp::BitOr:
      return bitwise(a, b, 0b1110);
    case BinOp::BitXor:
      return bitwise(a, b, 0b0110);
    case BinOp::Shl:
      return shl(a, b);
    case BinOp::Shr:
      return shr(a, b);
    case BinOp::Eq:
      return compare(a, b) == 0;
    case BinOp::Ne:
      return compare(a, b) != 0;
    case BinOp::Lt:
      return compare(a, b) < 0;
    case BinOp::Gt:
      return compare(a, b) > 0;
    case BinOp::Le:
      return compare(a, b) <= 0;
    case BinOp::Ge:
      return compare(a, b) >= 0;
    case BinOp::And:
      return popcount(a) > 0 && popcount(b) > 0;
    case BinOp::Or:
      return popcount(a) > 0 || popcount(b) > 0;
  }
  return 0xBAD0BAD0u;
}

/// Every UnOp, by the algorithms above.
inline uint32_t un(UnOp op, uint32_t x) {
  switch (op) {
    case UnOp::Negate:
      return negate(x);
    case UnOp::BitNot:
      return bitwise(x, 0, 0b0011);
    case UnOp::LogicalNot:
      return popcount(x) == 0;
    case UnOp::Popcount:
      return popcount(x);
    case UnOp::Clz:
      return clz(x);
    case UnOp::Ctz:
      return ctz(x);
    case UnOp::ReverseBits:
      return reverse_bits(x);
  }
  return 0xBAD0BAD0u;
}

/// The value an atomic leaves in memory.
inline uint32_t atomic(AtomicOp op, uint32_t old, uint32_t expected, uint32_t value) {
  switch (op) {
    case AtomicOp::Add:
      return add(old, value);
    case AtomicOp::Or:
      return bitwise(old, value, 0b1110);
    case AtomicOp::And:
      return bitwise(old, value, 0b1000);
    case AtomicOp::Xor:
      return bitwise(old, value, 0b0110);
    case AtomicOp::Min:
      return compare(old, value) <= 0 ? old : value;
    case AtomicOp::Max:
      return compare(old, value) >= 0 ? old : value;
    case AtomicOp::Exchange:
      return value;
    case AtomicOp::CompareExchange:
      return compare(old, expected) == 0 ? value : old;
  }
  return 0xBAD0BAD0u;
}

/// Every layer-1 primitive by id; nullopt for an unknown id.
inline std::optional<uint32_t> primitive(std::string_view id, uint32_t a, uint32_t b, uint32_t c) {
  constexpr std::string_view kPrefix = "primitive.";
  if (!id.starts_with(kPrefix)) return std::nullopt;
  const std::string_view name = id.substr(kPrefix.size());
  if (const auto op = bin_op_named(name)) return bin(*op, a, b);
  if (const auto op = un_op_named(name)) return un(*op, a);
  const int64_t d = compare(a, b);
  if (name == "min") return d <= 0 ? a : b;
  if (name == "max") return d >= 0 ? a : b;
  if (name == "abs_diff") return static_cast<uint32_t>(d < 0 ? -d : d);
  if (name == "rotl") {
    uint32_t x = a;
    for (uint32_t i = 0; i < b % 32; ++i) x = (x << 1) | (x >> 31);
    return x;
  }
  if (name == "clamp") {
    const uint32_t raised = compare(a, b) >= 0 ? a : b;
    return compare(raised, c) <= 0 ? raised : c;
  }
  return std::nullopt;
}

}  // namespace vyre::reference::independent
