// Negative and positive cases for the type checker's rules. The expected
// messages are copied by hand from seed 004 (V001-V025) and RULES.md (V026
// upward).
#include "spec/validate/rule_cases.h"
#include "spec/validate/test_support.h"

namespace vyre::testing {

using namespace vyre::build;
using A = BufferAccess;
using M = MessageId;
using R = RuleId;
using T = DataType;

std::vector<RuleCase> type_rule_cases() {
  std::vector<RuleCase> c;
  c.push_back({"V012_UnsupportedCast", R::V012, M::UnsupportedCast,
               simple({let("x", cast(T::Vec4U32, cast(T::U64, u32(1))))}),
               "vyre IR validation: unsupported cast from `u64` to `vec4u32`. Fix: see casts.md "
               "for valid conversions.",
               simple({let("x", cast(T::Vec2U32, cast(T::U64, u32(1))))})});
  c.push_back(
      {"V013_BytesElementAccess", R::V013, M::BytesElementAccess,
       program_of({storage("raw", 0, A::ReadOnly, T::Bytes)}, {let("x", load("raw", u32(0)))}),
       "vyre IR validation: operation on buffer `raw` with element type `bytes` is not "
       "supported. Fix: use a typed buffer.",
       // BufLen of a Bytes buffer is fine (its backing word count).
       program_of({storage("raw", 0, A::ReadOnly, T::Bytes)}, {let("x", buflen("raw"))})});
  c.push_back(
      {"V013_StoreToBytes", R::V013, M::BytesElementAccess,
       program_of({storage("raw", 0, A::ReadWrite, T::Bytes)}, {store("raw", u32(0), u32(1))}),
       "vyre IR validation: operation on buffer `raw` with element type `bytes` is not "
       "supported. Fix: use a typed buffer.",
       program_of({storage("raw", 0, A::ReadWrite, T::U32)}, {store("raw", u32(0), u32(1))})});
  c.push_back({"V014_AtomicNonU32Element", R::V014, M::AtomicNonU32Element,
               program_of({storage("counts", 0, A::ReadWrite, T::I32)},
                          {let("x", atomic(AtomicOp::Max, "counts", u32(0), u32(1)))}),
               "vyre IR validation: atomic on buffer `counts` with non-u32 element type `i32`. "
               "Fix: atomics only support U32 elements.",
               program_of({storage("counts", 0, A::ReadWrite, T::U32)},
                          {let("x", atomic(AtomicOp::Max, "counts", u32(0), u32(1)))})});
  c.push_back({"V015_LoopBoundNotU32", R::V015, M::LoopBoundNotU32,
               simple({loop("i", i32(0), u32(4), {})}),
               "vyre IR validation: loop bound expression must be `u32`, got `i32`. Fix: ensure "
               "`from` and `to` are U32.",
               simple({loop("i", cast(T::U32, i32(0)), u32(4), {})})});
  c.push_back({"V015_LoopUpperBoundBool", R::V015, M::LoopBoundNotU32,
               simple({loop("i", u32(0), boolean(true), {})}),
               "vyre IR validation: loop bound expression must be `u32`, got `bool`. Fix: ensure "
               "`from` and `to` are U32.",
               simple({loop("i", u32(0), cast(T::U32, boolean(true)), {})})});
  c.push_back({"V021_LeftOperand", R::V021, M::BinaryOperandNotU32,
               simple({let("x", add(boolean(true), u32(1)))}),
               "vyre IR validation: binary operation left operand must be `u32`, got `bool`. Fix: "
               "cast or rewrite the operand to produce U32.",
               simple({let("x", add(cast(T::U32, boolean(true)), u32(1)))})});
  c.push_back({"V021_RightOperand", R::V021, M::BinaryOperandNotU32,
               simple({let("x", lt(u32(1), i32(1)))}),
               "vyre IR validation: binary operation right operand must be `u32`, got `i32`. Fix: "
               "cast or rewrite the operand to produce U32.",
               simple({let("x", lt(u32(1), u32(1)))})});
  c.push_back({"V022_IfConditionType", R::V022, M::IfConditionType, simple({if_(i32(1), {})}),
               "vyre IR validation: if condition must be `u32` or `bool`, got `i32`. Fix: cast or "
               "rewrite the condition to produce U32 or Bool.",
               simple({if_(boolean(true), {})})});
  c.push_back({"V023_CastToBytes", R::V023, M::CastToBytes,
               simple({let("x", cast(T::Bytes, u32(1)))}),
               "vyre IR validation: V023: cast to Bytes is unsupported in WGSL lowering. Fix: use "
               "buffer load/store directly for byte data.",
               simple({let("x", cast(T::Vec4U32, u32(1)))})});
  c.push_back({"V026_StoreValueType", R::V026, M::StoreValueType,
               simple({store("out", u32(0), boolean(true))}),
               "vyre IR validation: store to buffer `out` writes a `bool` value into `u32` "
               "elements. Fix: cast the value to `u32` or store it into a buffer of `bool` "
               "elements.",
               simple({store("out", u32(0), cast(T::U32, boolean(true)))})});
  c.push_back({"V027_LoadIndexNotU32", R::V027, M::IndexNotU32,
               simple({let("x", load("in", i32(0)))}),
               "vyre IR validation: index into buffer `in` must be `u32`, got `i32`. Fix: cast or "
               "rewrite the index to produce U32.",
               simple({let("x", load("in", cast(T::U32, i32(0))))})});
  c.push_back({"V027_StoreIndexNotU32", R::V027, M::IndexNotU32,
               simple({store("out", boolean(false), u32(1))}),
               "vyre IR validation: index into buffer `out` must be `u32`, got `bool`. Fix: cast "
               "or rewrite the index to produce U32.",
               simple({store("out", u32(0), u32(1))})});
  c.push_back({"V027_AtomicIndexNotU32", R::V027, M::IndexNotU32,
               simple({let("x", atomic(AtomicOp::Or, "out", cast(T::U64, u32(0)), u32(1)))}),
               "vyre IR validation: index into buffer `out` must be `u32`, got `u64`. Fix: cast or "
               "rewrite the index to produce U32.",
               simple({let("x", atomic(AtomicOp::Or, "out", cast(T::U32, cast(T::U64, u32(0))),
                                       u32(1)))})});
  c.push_back({"V028_SelectArmsDiffer", R::V028, M::SelectArmsDiffer,
               simple({let("x", select(u32(1), u32(1), i32(1)))}),
               "vyre IR validation: select arms have different types `u32` and `i32`. Fix: cast "
               "one arm so that both arms have the same type.",
               simple({let("x", select(u32(1), i32(2), i32(1)))})});
  c.push_back(
      {"V032_UnaryOperandNotU32", R::V032, M::UnaryOperandNotU32,
       simple({let("x", unary(UnOp::BitNot, boolean(true)))}),
       "vyre IR validation: unary operation operand must be `u32`, got `bool`. Fix: cast or "
       "rewrite the operand to produce U32.",
       simple({let("x", unary(UnOp::BitNot, u32(1)))})});
  c.push_back({"V033_AtomicValueNotU32", R::V033, M::AtomicOperandNotU32,
               simple({let("x", atomic(AtomicOp::Add, "out", u32(0), i32(1)))}),
               "vyre IR validation: atomic value operand must be `u32`, got `i32`. Fix: cast or "
               "rewrite the operand to produce U32.",
               simple({let("x", atomic(AtomicOp::Add, "out", u32(0), u32(1)))})});
  c.push_back(
      {"V033_AtomicExpectedNotU32", R::V033, M::AtomicOperandNotU32,
       simple({let("x", compare_exchange("out", u32(0), boolean(false), u32(1)))}),
       "vyre IR validation: atomic expected operand must be `u32`, got `bool`. Fix: cast or "
       "rewrite the operand to produce U32.",
       simple({let("x", compare_exchange("out", u32(0), u32(0), u32(1)))})});
  c.push_back({"V035_CallArgumentNotU32", R::V035, M::CallArgumentNotU32,
               simple({let("x", call("primitive.add", {u32(1), boolean(true)}))}),
               "vyre IR validation: argument 2 of call to `primitive.add` must be `u32`, got "
               "`bool`. Fix: cast or rewrite the argument to produce U32.",
               simple({let("x", call("primitive.add", {u32(1), u32(1)}))})});
  c.push_back({"V036_SelectConditionType", R::V036, M::SelectConditionType,
               simple({let("x", select(i32(1), u32(1), u32(2)))}),
               "vyre IR validation: select condition must be `u32` or `bool`, got `i32`. Fix: cast "
               "or rewrite the condition to produce U32 or Bool.",
               simple({let("x", select(boolean(true), u32(1), u32(2)))})});
  c.push_back({"V037_AssignValueType", R::V037, M::AssignValueType,
               simple({let("x", u32(0)), assign("x", boolean(true))}),
               "vyre IR validation: assignment of a `bool` value to variable `x` of type `u32`. "
               "Fix: cast the value to `u32`; a variable keeps the type of its `let`.",
               simple({let("x", u32(0)), assign("x", u32(1))})});
  c.push_back({"V038_PlannedCastTarget", R::V038, M::PlannedCastTarget,
               simple({let("x", cast(T::F16, u32(1)))}),
               "vyre IR validation: cast to planned type `f16`, which is specified but not usable "
               "yet. Fix: cast to a stable type (u32, i32, u64, vec2u32, vec4u32 or bool).",
               simple({let("x", cast(T::I32, u32(1)))})});
  return c;
}

}  // namespace vyre::testing
