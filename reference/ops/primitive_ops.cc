#include "reference/ops/primitive_ops.h"

#include <array>

#include "reference/ops/scalar_ops.h"

namespace vyre::reference {
namespace {

template <BinFn F>
uint32_t binary_primitive(uint32_t a, uint32_t b, uint32_t) {
  return F(a, b);
}
template <UnFn F>
uint32_t unary_primitive(uint32_t a, uint32_t, uint32_t) {
  return F(a);
}
uint32_t min_primitive(uint32_t a, uint32_t b, uint32_t) {
  return primitive_min(a, b);
}
uint32_t max_primitive(uint32_t a, uint32_t b, uint32_t) {
  return primitive_max(a, b);
}
uint32_t abs_diff_primitive(uint32_t a, uint32_t b, uint32_t) {
  return primitive_abs_diff(a, b);
}
uint32_t rotl_primitive(uint32_t a, uint32_t b, uint32_t) {
  return primitive_rotl(a, b);
}

constexpr std::array kPrimitives = {
#define X(e, name, doc) PrimitiveRef{"primitive." name, 2, &binary_primitive<&bin_op::e>},
#include "spec/ir/bin_ops.def"
#undef X
#define X(e, name, doc) PrimitiveRef{"primitive." name, 1, &unary_primitive<&un_op::e>},
#include "spec/ir/un_ops.def"
#undef X
    PrimitiveRef{"primitive.min", 2, &min_primitive},
    PrimitiveRef{"primitive.max", 2, &max_primitive},
    PrimitiveRef{"primitive.abs_diff", 2, &abs_diff_primitive},
    PrimitiveRef{"primitive.rotl", 2, &rotl_primitive},
    PrimitiveRef{"primitive.clamp", 3, &primitive_clamp},
};

}  // namespace

std::span<const PrimitiveRef> primitive_refs() {
  return kPrimitives;
}

const PrimitiveRef* find_primitive_ref(std::string_view id) {
  for (const PrimitiveRef& p : kPrimitives) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

}  // namespace vyre::reference
