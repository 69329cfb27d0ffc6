// CPU reference functions of the layer-1 primitives registered in
// spec/ir/op_registry.cc (primitive.add ... primitive.clamp). Ops that are one
// IR operator reuse the scalar_ops.h functions; the compositions of several
// operators (min, max, abs_diff, rotl, clamp) are written out here.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace vyre::reference {

/// A primitive as a function of up to three u32 parameters (extra ones ignored).
using PrimitiveFn = uint32_t (*)(uint32_t a, uint32_t b, uint32_t c);

/// The CPU reference of one registered primitive.
struct PrimitiveRef {
  std::string_view id;
  uint32_t arity;
  PrimitiveFn fn;
};

/// Unsigned min(a, b).
constexpr uint32_t primitive_min(uint32_t a, uint32_t b) {
  return a < b ? a : b;
}
/// Unsigned max(a, b).
constexpr uint32_t primitive_max(uint32_t a, uint32_t b) {
  return a > b ? a : b;
}
/// Unsigned |a - b|, never wrapping.
constexpr uint32_t primitive_abs_diff(uint32_t a, uint32_t b) {
  return a > b ? a - b : b - a;
}
/// Rotate left by b & 31; a rotation by 0 is the identity.
constexpr uint32_t primitive_rotl(uint32_t a, uint32_t b) {
  const uint32_t s = b & 31u;
  return s == 0 ? a : (a << s) | (a >> (32u - s));
}
/// min(max(a, lo), hi); when lo > hi the result is hi (max first, then min).
constexpr uint32_t primitive_clamp(uint32_t a, uint32_t lo, uint32_t hi) {
  return primitive_min(primitive_max(a, lo), hi);
}

/// Every layer-1 primitive of the standard registry with its CPU reference.
std::span<const PrimitiveRef> primitive_refs();
/// The reference of `id`, or nullptr when it is not a layer-1 primitive.
const PrimitiveRef* find_primitive_ref(std::string_view id);

}  // namespace vyre::reference
