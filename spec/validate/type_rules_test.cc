// The type checker against hand-written tables: the cast table of pinned spec
// section 4 for every pair of types, and V021 for every operator, type and side.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <optional>

#include "spec/validate/test_support.h"

namespace vyre::testing {
namespace {

using namespace vyre::build;
using T = DataType;

/// The types whose values exist (SEMANTICS.md S2: no Bytes values).
const std::vector<T> kValueTypes = {T::U32, T::I32, T::Bool, T::U64, T::Vec2U32, T::Vec4U32};

/// Text names, written out by hand.
const std::map<T, std::string> kTypeNames = {
    {T::U32, "u32"},         {T::I32, "i32"},         {T::Bool, "bool"},  {T::U64, "u64"},
    {T::Vec2U32, "vec2u32"}, {T::Vec4U32, "vec4u32"}, {T::Bytes, "bytes"}};

/// Pinned spec section 4: the rule a cast from `from` to `to` breaks, if any.
std::optional<RuleId> expected_cast_rule(T from, T to) {
  if (to == T::Bytes) return from == T::Bytes ? std::nullopt : std::optional(RuleId::V023);
  const bool widens_8_to_16 = to == T::Vec4U32 && (from == T::U64 || from == T::Vec2U32);
  return widens_8_to_16 ? std::optional(RuleId::V012) : std::nullopt;
}

TEST(CastTable, EveryPairOfValueTypesFollowsThePinnedTable) {
  std::vector<T> targets = kValueTypes;
  targets.push_back(T::Bytes);
  for (T from : kValueTypes) {
    for (T to : targets) {
      const std::vector<Diagnostic> found = validate(simple({let("x", cast(to, value_of(from)))}));
      const std::optional<RuleId> rule = expected_cast_rule(from, to);
      SCOPED_TRACE(kTypeNames.at(from) + " -> " + kTypeNames.at(to));
      if (!rule) {
        EXPECT_TRUE(found.empty()) << found.front().message;
        continue;
      }
      ASSERT_EQ(found.size(), 1u);
      EXPECT_EQ(found[0].rule, *rule);
      if (*rule == RuleId::V012) {
        EXPECT_EQ(found[0].message, "vyre IR validation: unsupported cast from `" +
                                        kTypeNames.at(from) + "` to `" + kTypeNames.at(to) +
                                        "`. Fix: see casts.md for valid conversions.");
      }
    }
  }
}

TEST(CastTable, PlannedTargetsAreV038) {
  for (T planned : {T::U128, T::F32, T::F16, T::BF16, T::Tensor}) {
    EXPECT_EQ(rules_of(validate(simple({let("x", cast(planned, u32(1)))}))),
              std::vector<RuleId>{RuleId::V038});
  }
}

TEST(TypeRules, ACastYieldsItsTarget) {
  for (T t : kValueTypes) {
    const Program p = program_of({build::storage("v", 0, BufferAccess::ReadWrite, t)},
                                 {store("v", u32(0), value_of(t))});
    EXPECT_TRUE(validate(p).empty()) << kTypeNames.at(t);
  }
}

TEST(TypeRules, LoadYieldsTheElementTypeAndVariablesKeepIt) {
  for (T t : kValueTypes) {
    const Program p = program_of(
        {build::storage("src", 0, BufferAccess::ReadOnly, t),
         build::storage("dst", 1, BufferAccess::ReadWrite, t)},
        {let("x", load("src", u32(0))), assign("x", value_of(t)), store("dst", u32(0), var("x"))});
    EXPECT_TRUE(validate(p).empty()) << kTypeNames.at(t);
  }
}

TEST(TypeRules, LoopVariablesAreU32) {
  EXPECT_TRUE(
      validate(simple({loop("i", u32(0), u32(4), {store("out", var("i"), var("i"))})})).empty());
}

TEST(TypeRules, BothBadLoopBoundsAreReported) {
  EXPECT_EQ(rules_of(validate(simple({loop("i", i32(0), boolean(true), {})}))),
            (std::vector<RuleId>{RuleId::V015, RuleId::V015}));
}

TEST(TypeRules, AtomicsAndCallsYieldU32) {
  EXPECT_TRUE(validate(simple({store("out", atomic(AtomicOp::Min, "out", u32(0), u32(1)),
                                     call("primitive.rotl", {u32(1), u32(2)}))}))
                  .empty());
}

RC_GTEST_PROP(TypeRules, EveryNonU32BinOpOperandIsV021OnItsSide, ()) {
  const auto op =
      *rc::gen::elementOf(std::vector<BinOp>(all_bin_ops().begin(), all_bin_ops().end()));
  const T bad = *rc::gen::elementOf(std::vector<T>(kValueTypes.begin() + 1, kValueTypes.end()));
  const bool left = *rc::gen::arbitrary<bool>();
  const ExprPtr e = left ? binary(op, value_of(bad), u32(1)) : binary(op, u32(1), value_of(bad));
  const std::vector<Diagnostic> found = validate(simple({let("x", e)}));
  RC_ASSERT(found.size() == 1u);
  RC_ASSERT(found[0].rule == RuleId::V021);
  RC_ASSERT(found[0].message == "vyre IR validation: binary operation " +
                                    std::string(left ? "left" : "right") +
                                    " operand must be `u32`, got `" + kTypeNames.at(bad) +
                                    "`. Fix: cast or rewrite the operand to produce U32.");
}

RC_GTEST_PROP(TypeRules, StoreAcceptsExactlyTheElementType, ()) {
  const T element = *rc::gen::elementOf(kValueTypes);
  const T value = *rc::gen::elementOf(kValueTypes);
  const Program p = program_of({build::storage("dst", 0, BufferAccess::ReadWrite, element)},
                               {store("dst", u32(0), value_of(value))});
  const std::vector<Diagnostic> found = validate(p);
  if (element == value) {
    RC_ASSERT(found.empty());
  } else {
    RC_ASSERT(rules_of(found) == std::vector<RuleId>{RuleId::V026});
  }
}

}  // namespace
}  // namespace vyre::testing
