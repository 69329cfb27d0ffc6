// The CUDA C dialect's tables: the rows it spells its own way; the
// arithmetic, comparison and logical rows are clike's common ones (dialect.cc),
// as valid in CUDA C as in OpenCL C. Checked by lowering_test.cc (a row for
// every enum, hand-written patterns) and, for every catalogue program, by
// tests/cuda_c_syntax_test.cc (clang, and NVRTC where it is installed).
#include "backends/cuda/cuda_c_dialect.h"

#include <string_view>
#include <utility>

namespace vyre::cuda {
namespace {

// CUDA's vector types have no operators, no swizzles and no vector literals:
// values are built with make_uint2/make_uint4 (NVRTC declares them).
// Bool and U64 (8-byte aligned, as the host's buffer holds the word pair)
// are spelled from these rows (clike::Dialect::type).
constexpr clike::TypeSpelling kTypes[] = {
    {DataType::U32, "unsigned int", "unsigned int", "0u", "0u", "$a", "$a"},
    {DataType::I32, "int", "int", "0", "0", "$a", "$a"},
    {DataType::Vec2U32, "uint2", "uint2", "make_uint2(0u, 0u)", "make_uint2(0u, 0u)", "$a", "$a"},
    {DataType::Vec4U32, "uint4", "uint4", "make_uint4(0u, 0u, 0u, 0u)",
     "make_uint4(0u, 0u, 0u, 0u)", "$a", "$a"},
};

// The intrinsics take and give int where the IR has u32: __clz(0) is 32 and
// __ffs(0) is 0, but the test of 0 is written out, as in the other dialects.
constexpr std::pair<UnOp, std::string_view> kUnOps[] = {
    {UnOp::Popcount, "(unsigned int)__popc($a)"},
    {UnOp::Clz, "($a == 0u ? 32u : (unsigned int)__clz((int)$a))"},
    {UnOp::Ctz, "($a == 0u ? 32u : (unsigned int)__ffs((int)$a) - 1u)"},
    {UnOp::ReverseBits, "__brev($a)"},
};

// The valid non-identity cells of the pinned cast table but those clike
// writes for every dialect (component selections, Bool's C casts, a vector's
// first word to I32); identity casts are "$a" and every other cell is
// rejected. u32 <-> i32 keep the bits: NVRTC converts out-of-range values
// modulo 2^32 (two's complement, as C++20 defines it). A scalar cast to a
// vector type splats it. Without swizzles, the low half of a Vec4U32 is
// rebuilt from .x and .y (these rows win over the common "$a.xy").
constexpr clike::CastSpelling kCasts[] = {
    {DataType::U32, DataType::I32, "((int)$a)"},
    {DataType::U32, DataType::U64, "make_uint2($a, 0u)"},
    {DataType::U32, DataType::Vec2U32, "make_uint2($a, $a)"},
    {DataType::U32, DataType::Vec4U32, "make_uint4($a, $a, $a, $a)"},
    {DataType::I32, DataType::U32, "((unsigned int)$a)"},
    {DataType::I32, DataType::U64, "make_uint2((unsigned int)$a, $a < 0 ? 0xFFFFFFFFu : 0u)"},
    {DataType::I32, DataType::Vec2U32, "make_uint2((unsigned int)$a, (unsigned int)$a)"},
    {DataType::I32, DataType::Vec4U32,
     "make_uint4((unsigned int)$a, (unsigned int)$a, (unsigned int)$a, (unsigned int)$a)"},
    {DataType::Bool, DataType::U64, "make_uint2($a ? 1u : 0u, 0u)"},
    {DataType::Bool, DataType::Vec2U32, "make_uint2($a ? 1u : 0u, $a ? 1u : 0u)"},
    {DataType::Bool, DataType::Vec4U32,
     "make_uint4($a ? 1u : 0u, $a ? 1u : 0u, $a ? 1u : 0u, $a ? 1u : 0u)"},
    {DataType::Vec4U32, DataType::U64, "make_uint2($a.x, $a.y)"},
    {DataType::Vec4U32, DataType::Vec2U32, "make_uint2($a.x, $a.y)"},
};

// The unsigned int overloads on global memory: device scope, relaxed (as the
// OpenCL 1.2 and GLSL atomics), atomicCAS strong.
constexpr std::pair<AtomicOp, std::string_view> kAtomics[] = {
    {AtomicOp::Add, "atomicAdd"},       {AtomicOp::Or, "atomicOr"},
    {AtomicOp::And, "atomicAnd"},       {AtomicOp::Xor, "atomicXor"},
    {AtomicOp::Min, "atomicMin"},       {AtomicOp::Max, "atomicMax"},
    {AtomicOp::Exchange, "atomicExch"}, {AtomicOp::CompareExchange, "atomicCAS"},
};

// The built-in index variables are unsigned int; the dispatch checks keep
// every global id within u32.
constexpr clike::IdBuiltins kIds = {"(blockIdx.$b * blockDim.$b + threadIdx.$b)", "blockIdx.$b",
                                    "threadIdx.$b"};

}  // namespace

const clike::Dialect& cuda_c_dialect() {
  static constexpr clike::Dialect kCudaC = {
      .name = "CUDA C",
      .types = kTypes,
      .un_ops = kUnOps,
      .casts = kCasts,
      .atomics = kAtomics,
      .atomic_target = "&$a",
      .ids = kIds,
      .negative_i32 = "((int)$a)",
      // __syncthreads() waits for the block and makes its global and shared
      // writes before it visible to the whole block after it (S6).
      .barrier = {{}, "__syncthreads();", {}},
      // Every builtin the patterns call is NVRTC's own.
      .prelude = "",
  };
  return kCudaC;
}

const clike::KernelSpelling& cuda_c_kernel() {
  // One address space: uniform and read-only buffers are const pointers.
  static constexpr clike::KernelSpelling kKernel = {
      .uniform_pointer = "const $a*",
      .read_only_pointer = "const $a*",
      .read_write_pointer = "$a*",
      .workgroup_array = "__shared__ ",
      .local_index = "(threadIdx.z * $a + threadIdx.y * $b + threadIdx.x)",
  };
  return kKernel;
}

}  // namespace vyre::cuda
