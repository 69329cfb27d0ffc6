// The GLSL patterns the op and cast mutants of mutants.def put in place of
// glsl_tables.cc's rows. Read only through mutant_active, so outside the
// test-only mutant build no lookup reaches them.
#pragma once

#include <string_view>

#include "backends/vulkan/mutants/mutant.h"
#include "spec/ir/types.h"

namespace vyre::vulkan {

/// A binary op's mutated pattern.
struct BinOpMutant {
  Mutant mutant;
  BinOp op;
  std::string_view pattern;
};

/// A unary op's mutated pattern.
struct UnOpMutant {
  Mutant mutant;
  UnOp op;
  std::string_view pattern;
};

/// A cast's mutated pattern.
struct CastMutant {
  Mutant mutant;
  DataType from;
  DataType to;
  std::string_view pattern;
};

inline constexpr BinOpMutant kBinOpMutants[] = {
    {Mutant::ShrArithmetic, BinOp::Shr, "uint(int($a) >> ($b & 31u))"},
    {Mutant::ShlCountUnmasked, BinOp::Shl, "$a << $b"},
    {Mutant::DivByZeroKeepsDividend, BinOp::Div, "($b == 0u ? $a : $a / max($b, 1u))"},
    {Mutant::ModByZeroKeepsDividend, BinOp::Mod, "($b == 0u ? $a : $a % max($b, 1u))"},
    {Mutant::LtSigned, BinOp::Lt, "uint(int($a) < int($b))"},
    {Mutant::GeAsGt, BinOp::Ge, "uint($a > $b)"},
    {Mutant::LogicalAndBitwise, BinOp::And, "($a & $b)"},
    {Mutant::LogicalOrBitwise, BinOp::Or, "($a | $b)"},
};

inline constexpr UnOpMutant kUnOpMutants[] = {
    {Mutant::ClzOfZeroIs31, UnOp::Clz, "($a == 0u ? 31u : uint(31 - findMSB($a)))"},
    {Mutant::CtzOfZeroAllOnes, UnOp::Ctz, "uint(findLSB($a))"},
    {Mutant::PopcountLowHalf, UnOp::Popcount, "uint(bitCount($a & 0xFFFFu))"},
    {Mutant::NegateAsBitNot, UnOp::Negate, "~$a"},
    {Mutant::LogicalNotXorOne, UnOp::LogicalNot, "($a ^ 1u)"},
};

inline constexpr CastMutant kCastMutants[] = {
    {Mutant::CastI32ToU64ZeroExtends, DataType::I32, DataType::U64, "uvec2(uint($a), 0u)"},
    {Mutant::CastU32ToBoolLowBit, DataType::U32, DataType::Bool, "(($a & 1u) != 0u)"},
    {Mutant::CastU64ToBoolLowWord, DataType::U64, DataType::Bool, "($a.x != 0u)"},
    {Mutant::CastVec4ToVec2HighHalf, DataType::Vec4U32, DataType::Vec2U32, "$a.zw"},
};

}  // namespace vyre::vulkan
