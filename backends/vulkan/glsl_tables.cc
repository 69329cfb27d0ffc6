// The GLSL tables. Every row is exercised by the lowering tests against
// hand-written expected bytes; glsl_tables_test.cc checks each enum has a row.
#include "backends/vulkan/glsl_tables.h"

#include <array>
#include <utility>

#include "backends/vulkan/mutants/pattern_mutants.h"

namespace vyre::vulkan {
namespace {

constexpr std::array<GlslType, 6> kTypes = {{
    {DataType::U32, "uint", "uint", "0u", "$a", "$a"},
    {DataType::I32, "int", "int", "0", "$a", "$a"},
    // Bool lives in memory as a 0/1 word (S2); any non-zero word loads as true.
    {DataType::Bool, "bool", "uint", "false", "($a != 0u)", "uint($a)"},
    // U64 is the word pair (lo, hi): the same shape as Vec2U32.
    {DataType::U64, "uvec2", "uvec2", "uvec2(0u)", "$a", "$a"},
    {DataType::Vec2U32, "uvec2", "uvec2", "uvec2(0u)", "$a", "$a"},
    {DataType::Vec4U32, "uvec4", "uvec4", "uvec4(0u)", "$a", "$a"},
}};

// Div and Mod divide by max(b, 1): glslang may turn the ternary into a select
// that evaluates both sides, and a division by zero is undefined in SPIR-V (on
// a CPU driver such as lavapipe it traps).
constexpr std::array<std::pair<BinOp, std::string_view>, 18> kBinOps = {{
    {BinOp::Add, "$a + $b"},
    {BinOp::Sub, "$a - $b"},
    {BinOp::Mul, "$a * $b"},
    {BinOp::Div, "($b == 0u ? 0u : $a / max($b, 1u))"},
    {BinOp::Mod, "($b == 0u ? 0u : $a % max($b, 1u))"},
    {BinOp::BitAnd, "$a & $b"},
    {BinOp::BitOr, "$a | $b"},
    {BinOp::BitXor, "$a ^ $b"},
    {BinOp::Shl, "$a << ($b & 31u)"},
    {BinOp::Shr, "$a >> ($b & 31u)"},
    {BinOp::Eq, "uint($a == $b)"},
    {BinOp::Ne, "uint($a != $b)"},
    {BinOp::Lt, "uint($a < $b)"},
    {BinOp::Gt, "uint($a > $b)"},
    {BinOp::Le, "uint($a <= $b)"},
    {BinOp::Ge, "uint($a >= $b)"},
    {BinOp::And, "uint($a != 0u && $b != 0u)"},
    {BinOp::Or, "uint($a != 0u || $b != 0u)"},
}};

// findMSB/findLSB return -1 for 0, so Clz and Ctz test for 0 explicitly.
constexpr std::array<std::pair<UnOp, std::string_view>, 7> kUnOps = {{
    {UnOp::Negate, "0u - $a"},
    {UnOp::BitNot, "~$a"},
    {UnOp::LogicalNot, "uint($a == 0u)"},
    {UnOp::Popcount, "uint(bitCount($a))"},
    {UnOp::Clz, "($a == 0u ? 32u : uint(31 - findMSB($a)))"},
    {UnOp::Ctz, "($a == 0u ? 32u : uint(findLSB($a)))"},
    {UnOp::ReverseBits, "bitfieldReverse($a)"},
}};

struct CastRow {
  DataType from;
  DataType to;
  std::string_view pattern;
};

// The valid non-identity cells of the pinned cast table; identity casts are
// "$a" and every other cell is rejected.
constexpr std::array<CastRow, 28> kCasts = {{
    {DataType::U32, DataType::I32, "int($a)"},
    {DataType::U32, DataType::Bool, "($a != 0u)"},
    {DataType::U32, DataType::U64, "uvec2($a, 0u)"},
    {DataType::U32, DataType::Vec2U32, "uvec2($a)"},
    {DataType::U32, DataType::Vec4U32, "uvec4($a)"},
    {DataType::I32, DataType::U32, "uint($a)"},
    {DataType::I32, DataType::Bool, "($a != 0)"},
    {DataType::I32, DataType::U64, "uvec2(uint($a), $a < 0 ? 0xFFFFFFFFu : 0u)"},
    {DataType::I32, DataType::Vec2U32, "uvec2(uint($a))"},
    {DataType::I32, DataType::Vec4U32, "uvec4(uint($a))"},
    {DataType::Bool, DataType::U32, "uint($a)"},
    {DataType::Bool, DataType::I32, "int($a)"},
    {DataType::Bool, DataType::U64, "uvec2(uint($a), 0u)"},
    {DataType::Bool, DataType::Vec2U32, "uvec2(uint($a))"},
    {DataType::Bool, DataType::Vec4U32, "uvec4(uint($a))"},
    {DataType::U64, DataType::U32, "$a.x"},
    {DataType::U64, DataType::I32, "int($a.x)"},
    {DataType::U64, DataType::Bool, "any(notEqual($a, uvec2(0u)))"},
    {DataType::U64, DataType::Vec2U32, "$a"},
    {DataType::Vec2U32, DataType::U32, "$a.x"},
    {DataType::Vec2U32, DataType::I32, "int($a.x)"},
    {DataType::Vec2U32, DataType::Bool, "any(notEqual($a, uvec2(0u)))"},
    {DataType::Vec2U32, DataType::U64, "$a"},
    {DataType::Vec4U32, DataType::U32, "$a.x"},
    {DataType::Vec4U32, DataType::I32, "int($a.x)"},
    {DataType::Vec4U32, DataType::Bool, "any(notEqual($a, uvec4(0u)))"},
    {DataType::Vec4U32, DataType::U64, "$a.xy"},
    {DataType::Vec4U32, DataType::Vec2U32, "$a.xy"},
}};

constexpr std::array<std::pair<AtomicOp, std::string_view>, 8> kAtomics = {{
    {AtomicOp::Add, "atomicAdd"},
    {AtomicOp::Or, "atomicOr"},
    {AtomicOp::And, "atomicAnd"},
    {AtomicOp::Xor, "atomicXor"},
    {AtomicOp::Min, "atomicMin"},
    {AtomicOp::Max, "atomicMax"},
    {AtomicOp::Exchange, "atomicExchange"},
    {AtomicOp::CompareExchange, "atomicCompSwap"},
}};

template <typename Key, size_t N>
std::string_view lookup(const std::array<std::pair<Key, std::string_view>, N>& table, Key key) {
  for (const auto& [k, v] : table) {
    if (k == key) return v;
  }
  return {};
}

}  // namespace

std::optional<GlslType> glsl_type(DataType type) {
  for (const GlslType& row : kTypes) {
    if (row.type == type) return row;
  }
  return std::nullopt;
}

std::string_view glsl_pattern(BinOp op) {
  for (const BinOpMutant& m : kBinOpMutants) {
    if (m.op == op && mutant_active(m.mutant)) return m.pattern;
  }
  return lookup(kBinOps, op);
}
std::string_view glsl_pattern(UnOp op) {
  for (const UnOpMutant& m : kUnOpMutants) {
    if (m.op == op && mutant_active(m.mutant)) return m.pattern;
  }
  return lookup(kUnOps, op);
}
std::string_view glsl_atomic_function(AtomicOp op) {
  return lookup(kAtomics, op);
}

std::optional<std::string_view> glsl_cast_pattern(DataType from, DataType to) {
  if (!glsl_type(from) || !glsl_type(to)) return std::nullopt;
  if (from == to) return "$a";
  for (const CastMutant& m : kCastMutants) {
    if (m.from == from && m.to == to && mutant_active(m.mutant)) return m.pattern;
  }
  for (const CastRow& row : kCasts) {
    if (row.from == from && row.to == to) return row.pattern;
  }
  return std::nullopt;
}

std::string expand(std::string_view pattern, std::initializer_list<std::string_view> operands) {
  std::string out;
  out.reserve(pattern.size() + 16);
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char next = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    if (pattern[i] == '$' && next >= 'a' && static_cast<size_t>(next - 'a') < operands.size()) {
      out += operands.begin()[next - 'a'];
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace vyre::vulkan
