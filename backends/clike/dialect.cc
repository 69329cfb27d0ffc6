// Lookups in a dialect's tables. The seeded bugs of the op and cast families
// (backends/mutants/mutants.def) are written here once, from the dialect's
// own rows, so that each applies to every dialect.
#include "backends/clike/dialect.h"

#include "backends/mutants/mutant.h"

namespace vyre::clike {
namespace {

// The operators every C-like language writes alike. u32 arithmetic wraps. Div
// and Mod divide by max(b, 1): a compiler may evaluate both arms of `?:` that
// have no side effects (glslang turns it into a select), and a division by
// zero is undefined (on a CPU device, lavapipe or PoCL, it traps). Shift
// counts are masked as S3 says, whatever the language's own rule.
constexpr std::pair<BinOp, std::string_view> kCommonBinOps[] = {
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
};

constexpr std::pair<UnOp, std::string_view> kCommonUnOps[] = {
    {UnOp::Negate, "0u - $a"},
    {UnOp::BitNot, "~$a"},
};

// Comparisons and And/Or/Not as C conditions. Each yields a u32 0/1 as the
// dialect casts Bool to U32, whatever the language's own result type of the
// condition (bool in GLSL and CUDA C, int in OpenCL C).
constexpr std::pair<BinOp, std::string_view> kBinConditions[] = {
    {BinOp::Eq, "$a == $b"},
    {BinOp::Ne, "$a != $b"},
    {BinOp::Lt, "$a < $b"},
    {BinOp::Gt, "$a > $b"},
    {BinOp::Le, "$a <= $b"},
    {BinOp::Ge, "$a >= $b"},
    {BinOp::And, "$a != 0u && $b != 0u"},
    {BinOp::Or, "$a != 0u || $b != 0u"},
};

constexpr std::pair<UnOp, std::string_view> kUnConditions[] = {
    {UnOp::LogicalNot, "$a == 0u"},
};

// Component selections of the word-pair and word-quad types (U64 is the pair
// (lo, hi), the shape of Vec2U32), and the casts to and from Bool written
// with C's comparison and conditional operators.
constexpr CastSpelling kCommonCasts[] = {
    {DataType::U32, DataType::Bool, "($a != 0u)"},
    {DataType::I32, DataType::Bool, "($a != 0)"},
    {DataType::Bool, DataType::U32, "($a ? 1u : 0u)"},
    {DataType::Bool, DataType::I32, "($a ? 1 : 0)"},
    {DataType::U64, DataType::Bool, "(($a.x | $a.y) != 0u)"},
    {DataType::Vec2U32, DataType::Bool, "(($a.x | $a.y) != 0u)"},
    {DataType::Vec4U32, DataType::Bool, "(($a.x | $a.y | $a.z | $a.w) != 0u)"},
    {DataType::U64, DataType::U32, "$a.x"},
    {DataType::U64, DataType::Vec2U32, "$a"},
    {DataType::Vec2U32, DataType::U32, "$a.x"},
    {DataType::Vec2U32, DataType::U64, "$a"},
    {DataType::Vec4U32, DataType::U32, "$a.x"},
    {DataType::Vec4U32, DataType::U64, "$a.xy"},
    {DataType::Vec4U32, DataType::Vec2U32, "$a.xy"},
};

/// The row of a non-identity cast in the dialect's table, else in the common
/// one; empty when neither has it.
std::string_view table_cast(const Dialect& d, DataType from, DataType to) {
  for (const CastSpelling& row : d.casts) {
    if (row.from == from && row.to == to) return row.pattern;
  }
  for (const CastSpelling& row : kCommonCasts) {
    if (row.from == from && row.to == to) return row.pattern;
  }
  return {};
}

/// The pattern of a non-identity cast: table_cast, else for a word pair or
/// quad to I32 its first word (the cast to U32) cast as a U32 is; empty when
/// the cast has none.
std::string cast_row(const Dialect& d, DataType from, DataType to) {
  if (const std::string_view row = table_cast(d, from, to); !row.empty()) return std::string(row);
  if (to != DataType::I32 || from == DataType::U32 || from == DataType::Bool) return {};
  const std::string_view first_word = table_cast(d, from, DataType::U32);
  if (first_word.empty()) return {};
  return expand(table_cast(d, DataType::U32, DataType::I32), {first_word});
}

/// The pattern of `op`: the dialect's row, else the common one, else its
/// condition made a u32 0/1 by the dialect's Bool -> U32 cast.
template <typename Op, size_t N, size_t M>
std::string row_of(const Dialect& d, std::span<const std::pair<Op, std::string_view>> table,
                   const std::pair<Op, std::string_view> (&common)[N],
                   const std::pair<Op, std::string_view> (&conditions)[M], Op op) {
  for (const auto& [k, v] : table) {
    if (k == op) return std::string(v);
  }
  for (const auto& [k, v] : common) {
    if (k == op) return std::string(v);
  }
  for (const auto& [k, v] : conditions) {
    if (k == op) return expand(table_cast(d, DataType::Bool, DataType::U32), {v});
  }
  return {};
}

std::string row_of(const Dialect& d, BinOp op) {
  return row_of(d, {}, kCommonBinOps, kBinConditions, op);
}

std::string row_of(const Dialect& d, UnOp op) {
  return row_of(d, d.un_ops, kCommonUnOps, kUnConditions, op);
}

/// The seeded bug's pattern for `op`, built from the dialect's correct rows;
/// nullopt when no mutant of `op` is selected (always, outside the test-only
/// mutant build).
std::optional<std::string> mutated(const Dialect& d, BinOp op) {
  const auto as_i32 = [&](std::string_view x) {
    return expand(cast_row(d, DataType::U32, DataType::I32), {x});
  };
  if (op == BinOp::Shr && mutant_active(Mutant::ShrArithmetic))
    return expand(cast_row(d, DataType::I32, DataType::U32),
                  {"(" + as_i32("$a") + " >> ($b & 31u))"});
  if (op == BinOp::Shl && mutant_active(Mutant::ShlCountUnmasked)) return "$a << $b";
  if (op == BinOp::Div && mutant_active(Mutant::DivByZeroKeepsDividend))
    return "($b == 0u ? $a : $a / max($b, 1u))";
  if (op == BinOp::Mod && mutant_active(Mutant::ModByZeroKeepsDividend))
    return "($b == 0u ? $a : $a % max($b, 1u))";
  if (op == BinOp::Lt && mutant_active(Mutant::LtSigned))
    return "(" + as_i32("$a") + " < " + as_i32("$b") + " ? 1u : 0u)";
  if (op == BinOp::Ge && mutant_active(Mutant::GeAsGt)) return row_of(d, BinOp::Gt);
  if (op == BinOp::And && mutant_active(Mutant::LogicalAndBitwise)) return "($a & $b)";
  if (op == BinOp::Or && mutant_active(Mutant::LogicalOrBitwise)) return "($a | $b)";
  return std::nullopt;
}

std::optional<std::string> mutated(const Dialect& d, UnOp op) {
  const auto row = [&](UnOp o) { return row_of(d, o); };
  if (op == UnOp::Clz && mutant_active(Mutant::ClzOfZeroIs31))
    return "($a == 0u ? 31u : " + row(UnOp::Clz) + ")";
  if (op == UnOp::Ctz && mutant_active(Mutant::CtzOfZeroAllOnes))
    return "($a == 0u ? 0xFFFFFFFFu : " + row(UnOp::Ctz) + ")";
  if (op == UnOp::Popcount && mutant_active(Mutant::PopcountLowHalf))
    return expand(row(UnOp::Popcount), {"($a & 0xFFFFu)"});
  if (op == UnOp::Negate && mutant_active(Mutant::NegateAsBitNot)) return row(UnOp::BitNot);
  if (op == UnOp::LogicalNot && mutant_active(Mutant::LogicalNotXorOne)) return "($a ^ 1u)";
  return std::nullopt;
}

/// The low-half selection `row` ("$a.xy", "make_uint2($a.x, $a.y)") made to
/// select the high half: each component x after a '.' becomes z, each y w.
std::string high_half(std::string_view row) {
  std::string out(row);
  for (size_t i = 1; i < out.size(); ++i) {
    if (out[i - 1] != '.') continue;
    for (size_t j = i; j < out.size() && (out[j] == 'x' || out[j] == 'y'); ++j) {
      out[j] = out[j] == 'x' ? 'z' : 'w';
    }
  }
  return out;
}

std::optional<std::string> mutated_cast(const Dialect& d, DataType from, DataType to) {
  const auto cast = [&](DataType f, DataType t, std::string_view x) {
    return expand(cast_row(d, f, t), {x});
  };
  using T = DataType;
  if (from == T::I32 && to == T::U64 && mutant_active(Mutant::CastI32ToU64ZeroExtends))
    return cast(T::U32, T::U64, cast(T::I32, T::U32, "$a"));
  if (from == T::U32 && to == T::Bool && mutant_active(Mutant::CastU32ToBoolLowBit))
    return cast(T::U32, T::Bool, "($a & 1u)");
  if (from == T::U64 && to == T::Bool && mutant_active(Mutant::CastU64ToBoolLowWord))
    return cast(T::U32, T::Bool, cast(T::U64, T::U32, "$a"));
  if (from == T::Vec4U32 && to == T::Vec2U32 && mutant_active(Mutant::CastVec4ToVec2HighHalf))
    return high_half(cast_row(d, T::Vec4U32, T::Vec2U32));
  return std::nullopt;
}

}  // namespace

std::optional<TypeSpelling> Dialect::type(DataType t) const {
  // U64 is the word pair (lo, hi): the shape of Vec2U32, no IR operation
  // does arithmetic on it, and its casts stay those of Vec2U32.
  const DataType spelled = t == DataType::U64 ? DataType::Vec2U32 : t;
  for (TypeSpelling row : types) {
    if (row.type != spelled) continue;
    row.type = t;
    return row;
  }
  if (t != DataType::Bool) return std::nullopt;
  // Bool lives in memory as a 0/1 word (S2); any non-zero word loads as true.
  const std::optional<TypeSpelling> word = type(DataType::U32);
  if (!word) return std::nullopt;
  return TypeSpelling{DataType::Bool,
                      "bool",
                      word->memory,
                      "false",
                      word->memory_zero,
                      table_cast(*this, DataType::U32, DataType::Bool),
                      table_cast(*this, DataType::Bool, DataType::U32)};
}

std::string Dialect::pattern(BinOp op) const {
  if (std::optional<std::string> bug = mutated(*this, op)) return *bug;
  return row_of(*this, op);
}

std::string Dialect::pattern(UnOp op) const {
  if (std::optional<std::string> bug = mutated(*this, op)) return *bug;
  return row_of(*this, op);
}

std::optional<std::string> Dialect::cast_pattern(DataType from, DataType to) const {
  if (!type(from) || !type(to)) return std::nullopt;
  if (from == to) return "$a";
  if (std::optional<std::string> bug = mutated_cast(*this, from, to)) return bug;
  std::string row = cast_row(*this, from, to);
  if (row.empty()) return std::nullopt;
  return row;
}

std::string_view Dialect::atomic_function(AtomicOp op) const {
  for (const auto& [k, v] : atomics) {
    if (k == op) return v;
  }
  return {};
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

}  // namespace vyre::clike
