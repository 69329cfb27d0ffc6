// The OpenCL C dialect's tables. Every row is exercised by the parity tests
// against the reference interpreter; lowering_test.cc checks each enum has a
// row.
#include "backends/opencl/opencl_c_dialect.h"

#include <string_view>
#include <utility>

namespace vyre::opencl {
namespace {

// Bool and U64 are spelled from these rows (clike::Dialect::type).
constexpr clike::TypeSpelling kTypes[] = {
    {DataType::U32, "uint", "uint", "0u", "(uint)(0u)", "$a", "$a"},
    {DataType::I32, "int", "int", "0", "(int)(0u)", "$a", "$a"},
    {DataType::Vec2U32, "uint2", "uint2", "((uint2)(0u))", "(uint2)(0u)", "$a", "$a"},
    {DataType::Vec4U32, "uint4", "uint4", "((uint4)(0u))", "(uint4)(0u)", "$a", "$a"},
};

// clz(0) is 32 in OpenCL C, but the test is written out so that no device's
// reading of that rule matters. OpenCL C 1.2 has no ctz: the lowest set bit
// (a & -a) has 31 - clz trailing zeros. Nor has it a bit reversal.
constexpr std::pair<UnOp, std::string_view> kUnOps[] = {
    {UnOp::Popcount, "popcount($a)"},
    {UnOp::Clz, "($a == 0u ? 32u : clz($a))"},
    {UnOp::Ctz, "($a == 0u ? 32u : 31u - clz($a & (0u - $a)))"},
    {UnOp::ReverseBits, "vyre_reverse_bits($a)"},
};

// The valid non-identity cells of the pinned cast table but those clike
// writes for every dialect (component selections, Bool's C casts, a vector's
// first word to I32); identity casts are "$a" and every other cell is
// rejected. u32 <-> i32 reinterpret the bits (as_int/as_uint), because a C
// conversion of an out-of-range value is implementation-defined. A scalar
// cast to a vector type splats it.
constexpr clike::CastSpelling kCasts[] = {
    {DataType::U32, DataType::I32, "as_int($a)"},
    {DataType::U32, DataType::U64, "((uint2)($a, 0u))"},
    {DataType::U32, DataType::Vec2U32, "((uint2)($a))"},
    {DataType::U32, DataType::Vec4U32, "((uint4)($a))"},
    {DataType::I32, DataType::U32, "as_uint($a)"},
    {DataType::I32, DataType::U64, "((uint2)(as_uint($a), $a < 0 ? 0xFFFFFFFFu : 0u))"},
    {DataType::I32, DataType::Vec2U32, "((uint2)(as_uint($a)))"},
    {DataType::I32, DataType::Vec4U32, "((uint4)(as_uint($a)))"},
    {DataType::Bool, DataType::U64, "((uint2)($a ? 1u : 0u, 0u))"},
    {DataType::Bool, DataType::Vec2U32, "((uint2)($a ? 1u : 0u))"},
    {DataType::Bool, DataType::Vec4U32, "((uint4)($a ? 1u : 0u))"},
};

// OpenCL 1.2 core 32-bit atomics on __global memory: relaxed, device scope.
constexpr std::pair<AtomicOp, std::string_view> kAtomics[] = {
    {AtomicOp::Add, "atomic_add"},       {AtomicOp::Or, "atomic_or"},
    {AtomicOp::And, "atomic_and"},       {AtomicOp::Xor, "atomic_xor"},
    {AtomicOp::Min, "atomic_min"},       {AtomicOp::Max, "atomic_max"},
    {AtomicOp::Exchange, "atomic_xchg"}, {AtomicOp::CompareExchange, "atomic_cmpxchg"},
};

// The ids are size_t; the dispatch checks keep every id within u32.
constexpr clike::IdBuiltins kIds = {"((uint)get_global_id($a))", "((uint)get_group_id($a))",
                                    "((uint)get_local_id($a))"};

constexpr std::string_view kPrelude =
    "// Bit i moves to bit 31 - i (OpenCL C 1.2 has no builtin for it).\n"
    "uint vyre_reverse_bits(uint x) {\n"
    "  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);\n"
    "  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);\n"
    "  x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);\n"
    "  x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);\n"
    "  return (x >> 16) | (x << 16);\n"
    "}\n";

}  // namespace

const clike::Dialect& opencl_c_dialect() {
  static constexpr clike::Dialect kOpenClC = {
      .name = "OpenCL C 1.2",
      .types = kTypes,
      .un_ops = kUnOps,
      .casts = kCasts,
      .atomics = kAtomics,
      // The 1.2 atomics take a `volatile __global uint*`.
      .atomic_target = "&$a",
      .ids = kIds,
      .negative_i32 = "as_int($a)",
      // One statement fences both memories (S6).
      .barrier = {{}, "barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);", {}},
      .prelude = kPrelude,
  };
  return kOpenClC;
}

const clike::KernelSpelling& opencl_c_kernel() {
  // Uniform buffers live in __constant memory; the ids are size_t, so the
  // local index is computed in size_t and narrowed once.
  static constexpr clike::KernelSpelling kKernel = {
      .uniform_pointer = "__constant $a*",
      .read_only_pointer = "__global const $a*",
      .read_write_pointer = "__global $a*",
      .workgroup_array = "__local ",
      .local_index = "(uint)(get_local_id(2) * $a + get_local_id(1) * $b + get_local_id(0))",
  };
  return kKernel;
}

}  // namespace vyre::opencl
