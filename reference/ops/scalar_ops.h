// The CPU reference semantics of every BinOp, UnOp and AtomicOp (pinned spec
// section 3, SEMANTICS S3/S5), WABT style: each operator is a tiny pure
// function with its edge outcome written out, and the tables below bind them to
// the enumerations generated from spec/ir/*.def. The interpreter's lane kernels
// instantiate exactly these functions, so there is one source of semantics.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "spec/ir/types.h"

namespace vyre::reference {

/// u32 x u32 -> u32, the signature of every BinOp.
using BinFn = uint32_t (*)(uint32_t a, uint32_t b);
/// u32 -> u32, the signature of every UnOp.
using UnFn = uint32_t (*)(uint32_t x);
/// The value an atomic stores, given the element's old value, `expected`
/// (CompareExchange only; 0 otherwise) and the operand; the atomic returns `old`.
using AtomicFn = uint32_t (*)(uint32_t old, uint32_t expected, uint32_t value);

/// BinOps, named after their enumerators so the tables below follow bin_ops.def.
namespace bin_op {
/// Wraps mod 2^32 (unsigned arithmetic in C++ does exactly that).
constexpr uint32_t Add(uint32_t a, uint32_t b) {
  return a + b;
}
/// Wraps mod 2^32.
constexpr uint32_t Sub(uint32_t a, uint32_t b) {
  return a - b;
}
/// Low 32 bits of the 64-bit product.
constexpr uint32_t Mul(uint32_t a, uint32_t b) {
  return a * b;
}
/// Unsigned; division by zero is defined as 0, not a trap.
constexpr uint32_t Div(uint32_t a, uint32_t b) {
  return b == 0 ? 0 : a / b;
}
/// Unsigned; modulo zero is defined as 0, not a trap.
constexpr uint32_t Mod(uint32_t a, uint32_t b) {
  return b == 0 ? 0 : a % b;
}
/// Bitwise and.
constexpr uint32_t BitAnd(uint32_t a, uint32_t b) {
  return a & b;
}
/// Bitwise or.
constexpr uint32_t BitOr(uint32_t a, uint32_t b) {
  return a | b;
}
/// Bitwise exclusive or.
constexpr uint32_t BitXor(uint32_t a, uint32_t b) {
  return a ^ b;
}
/// The shift amount is masked to 5 bits, so 1 << 32 == 1.
constexpr uint32_t Shl(uint32_t a, uint32_t b) {
  return a << (b & 31u);
}
/// Logical (zero-filling) shift, amount masked to 5 bits.
constexpr uint32_t Shr(uint32_t a, uint32_t b) {
  return a >> (b & 31u);
}
/// 1 when equal, else 0.
constexpr uint32_t Eq(uint32_t a, uint32_t b) {
  return a == b ? 1u : 0u;
}
/// 1 when different, else 0.
constexpr uint32_t Ne(uint32_t a, uint32_t b) {
  return a != b ? 1u : 0u;
}
/// Unsigned compare: 0x80000000 is large, not negative.
constexpr uint32_t Lt(uint32_t a, uint32_t b) {
  return a < b ? 1u : 0u;
}
/// Unsigned compare.
constexpr uint32_t Gt(uint32_t a, uint32_t b) {
  return a > b ? 1u : 0u;
}
/// Unsigned compare.
constexpr uint32_t Le(uint32_t a, uint32_t b) {
  return a <= b ? 1u : 0u;
}
/// Unsigned compare.
constexpr uint32_t Ge(uint32_t a, uint32_t b) {
  return a >= b ? 1u : 0u;
}
/// Logical and on truthiness: any non-zero word is true; the result is 0 or 1.
constexpr uint32_t And(uint32_t a, uint32_t b) {
  return (a != 0 && b != 0) ? 1u : 0u;
}
/// Logical or on truthiness; the result is 0 or 1.
constexpr uint32_t Or(uint32_t a, uint32_t b) {
  return (a != 0 || b != 0) ? 1u : 0u;
}
}  // namespace bin_op

/// UnOps, named after their enumerators.
namespace un_op {
/// Two's complement negation, wrapping: Negate(0x80000000) == 0x80000000.
constexpr uint32_t Negate(uint32_t x) {
  return 0u - x;
}
/// Bitwise complement.
constexpr uint32_t BitNot(uint32_t x) {
  return ~x;
}
/// 1 for zero, 0 for anything else.
constexpr uint32_t LogicalNot(uint32_t x) {
  return x == 0 ? 1u : 0u;
}
/// Number of set bits.
constexpr uint32_t Popcount(uint32_t x) {
  return static_cast<uint32_t>(std::popcount(x));
}
/// Leading zero bits; Clz(0) is 32 by definition.
constexpr uint32_t Clz(uint32_t x) {
  return x == 0 ? 32u : static_cast<uint32_t>(std::countl_zero(x));
}
/// Trailing zero bits; Ctz(0) is 32 by definition.
constexpr uint32_t Ctz(uint32_t x) {
  return x == 0 ? 32u : static_cast<uint32_t>(std::countr_zero(x));
}
/// Bit i moves to bit 31 - i (swap halves, then bytes, nibbles, pairs, bits).
constexpr uint32_t ReverseBits(uint32_t x) {
  x = (x >> 16) | (x << 16);
  x = ((x & 0xFF00FF00u) >> 8) | ((x & 0x00FF00FFu) << 8);
  x = ((x & 0xF0F0F0F0u) >> 4) | ((x & 0x0F0F0F0Fu) << 4);
  x = ((x & 0xCCCCCCCCu) >> 2) | ((x & 0x33333333u) << 2);
  x = ((x & 0xAAAAAAAAu) >> 1) | ((x & 0x55555555u) << 1);
  return x;
}
}  // namespace un_op

/// AtomicOps: the new element value; every atomic returns the old one.
namespace atomic_op {
/// Wrapping add.
constexpr uint32_t Add(uint32_t old, uint32_t, uint32_t value) {
  return old + value;
}
/// Bitwise or.
constexpr uint32_t Or(uint32_t old, uint32_t, uint32_t value) {
  return old | value;
}
/// Bitwise and.
constexpr uint32_t And(uint32_t old, uint32_t, uint32_t value) {
  return old & value;
}
/// Bitwise exclusive or.
constexpr uint32_t Xor(uint32_t old, uint32_t, uint32_t value) {
  return old ^ value;
}
/// Unsigned minimum.
constexpr uint32_t Min(uint32_t old, uint32_t, uint32_t value) {
  return value < old ? value : old;
}
/// Unsigned maximum.
constexpr uint32_t Max(uint32_t old, uint32_t, uint32_t value) {
  return value > old ? value : old;
}
/// Unconditional replacement.
constexpr uint32_t Exchange(uint32_t, uint32_t, uint32_t value) {
  return value;
}
/// Strong: writes `value` exactly when old == expected, never fails spuriously.
constexpr uint32_t CompareExchange(uint32_t old, uint32_t expected, uint32_t value) {
  return old == expected ? value : old;
}
}  // namespace atomic_op

/// The BinOp functions in bin_ops.def order.
inline constexpr std::array<BinFn, 18> kBinFns = {
#define X(e, name, doc) &bin_op::e,
#include "spec/ir/bin_ops.def"
#undef X
};
/// The UnOp functions in un_ops.def order.
inline constexpr std::array<UnFn, 7> kUnFns = {
#define X(e, name, doc) &un_op::e,
#include "spec/ir/un_ops.def"
#undef X
};
/// The AtomicOp functions in atomic_ops.def order.
inline constexpr std::array<AtomicFn, 8> kAtomicFns = {
#define X(e, name, doc) &atomic_op::e,
#include "spec/ir/atomic_ops.def"
#undef X
};

/// Applies a BinOp to one pair of words.
constexpr uint32_t apply(BinOp op, uint32_t a, uint32_t b) {
  return kBinFns[static_cast<size_t>(op)](a, b);
}
/// Applies a UnOp to one word.
constexpr uint32_t apply(UnOp op, uint32_t x) {
  return kUnFns[static_cast<size_t>(op)](x);
}
/// The value an atomic leaves in memory; the atomic itself returns `old`.
constexpr uint32_t apply(AtomicOp op, uint32_t old, uint32_t expected, uint32_t value) {
  return kAtomicFns[static_cast<size_t>(op)](old, expected, value);
}

/// Truthiness of If and Select conditions (U32 or Bool): any non-zero word.
constexpr bool truthy(uint32_t word) {
  return word != 0;
}

}  // namespace vyre::reference
