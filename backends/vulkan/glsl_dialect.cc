// The GLSL dialect's tables. Every row is exercised by the lowering tests
// against hand-written expected bytes; glsl_dialect_test.cc checks each enum
// has a row.
#include "backends/vulkan/glsl_dialect.h"

#include <string_view>
#include <utility>

namespace vyre::vulkan {
namespace {

// Bool and U64 are spelled from these rows (clike::Dialect::type).
constexpr clike::TypeSpelling kTypes[] = {
    {DataType::U32, "uint", "uint", "0u", "uint(0u)", "$a", "$a"},
    {DataType::I32, "int", "int", "0", "int(0u)", "$a", "$a"},
    {DataType::Vec2U32, "uvec2", "uvec2", "uvec2(0u)", "uvec2(0u)", "$a", "$a"},
    {DataType::Vec4U32, "uvec4", "uvec4", "uvec4(0u)", "uvec4(0u)", "$a", "$a"},
};

// findMSB/findLSB return -1 for 0, so Clz and Ctz test for 0 explicitly.
constexpr std::pair<UnOp, std::string_view> kUnOps[] = {
    {UnOp::Popcount, "uint(bitCount($a))"},
    {UnOp::Clz, "($a == 0u ? 32u : uint(31 - findMSB($a)))"},
    {UnOp::Ctz, "($a == 0u ? 32u : uint(findLSB($a)))"},
    {UnOp::ReverseBits, "bitfieldReverse($a)"},
};

// The valid non-identity cells of the pinned cast table but those clike
// writes for every dialect (component selections, Bool's C casts, a vector's
// first word to I32); identity casts are "$a" and every other cell is
// rejected. Bool -> U32 is uint(), so comparisons and And/Or/Not yield
// uint(condition).
constexpr clike::CastSpelling kCasts[] = {
    {DataType::U32, DataType::I32, "int($a)"},
    {DataType::U32, DataType::U64, "uvec2($a, 0u)"},
    {DataType::U32, DataType::Vec2U32, "uvec2($a)"},
    {DataType::U32, DataType::Vec4U32, "uvec4($a)"},
    {DataType::I32, DataType::U32, "uint($a)"},
    {DataType::I32, DataType::U64, "uvec2(uint($a), $a < 0 ? 0xFFFFFFFFu : 0u)"},
    {DataType::I32, DataType::Vec2U32, "uvec2(uint($a))"},
    {DataType::I32, DataType::Vec4U32, "uvec4(uint($a))"},
    {DataType::Bool, DataType::U32, "uint($a)"},
    {DataType::Bool, DataType::I32, "int($a)"},
    {DataType::Bool, DataType::U64, "uvec2(uint($a), 0u)"},
    {DataType::Bool, DataType::Vec2U32, "uvec2(uint($a))"},
    {DataType::Bool, DataType::Vec4U32, "uvec4(uint($a))"},
    {DataType::U64, DataType::Bool, "any(notEqual($a, uvec2(0u)))"},
    {DataType::Vec2U32, DataType::Bool, "any(notEqual($a, uvec2(0u)))"},
    {DataType::Vec4U32, DataType::Bool, "any(notEqual($a, uvec4(0u)))"},
};

constexpr std::pair<AtomicOp, std::string_view> kAtomics[] = {
    {AtomicOp::Add, "atomicAdd"},           {AtomicOp::Or, "atomicOr"},
    {AtomicOp::And, "atomicAnd"},           {AtomicOp::Xor, "atomicXor"},
    {AtomicOp::Min, "atomicMin"},           {AtomicOp::Max, "atomicMax"},
    {AtomicOp::Exchange, "atomicExchange"}, {AtomicOp::CompareExchange, "atomicCompSwap"},
};

// GLSL names its id vectors' axes .x .y .z.
constexpr clike::IdBuiltins kIds = {"gl_GlobalInvocationID.$b", "gl_WorkGroupID.$b",
                                    "gl_LocalInvocationID.$b"};

// Writable buffers are coherent; the fences make storage and workgroup writes
// before the barrier visible after it (S6).
constexpr std::string_view kFencesBefore[] = {"memoryBarrierBuffer();", "memoryBarrierShared();"};
constexpr std::string_view kFencesAfter[] = {"memoryBarrierBuffer();"};

}  // namespace

const clike::Dialect& glsl_dialect() {
  static constexpr clike::Dialect kGlsl = {
      .name = "GLSL 450",
      .types = kTypes,
      .un_ops = kUnOps,
      .casts = kCasts,
      .atomics = kAtomics,
      .atomic_target = "$a",
      .ids = kIds,
      .negative_i32 = "int($a)",
      .barrier = {kFencesBefore, "barrier();", kFencesAfter},
      .prelude = "",
  };
  return kGlsl;
}

}  // namespace vyre::vulkan
