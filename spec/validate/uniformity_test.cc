// V010 through the uniformity analysis (RULES.md, "The uniformity analysis"):
// each case names the barriers it expects to be divergent.
#include <gtest/gtest.h>

#include "spec/validate/test_support.h"

namespace vyre::testing {
namespace {

using namespace vyre::build;
using A = BufferAccess;

std::vector<BufferDecl> buffers() {
  return {storage("ro", 0, A::ReadOnly), storage("rw", 1, A::ReadWrite),
          storage("params", 2, A::Uniform), workgroup("tile", DataType::U32, 64)};
}

/// Number of V010 diagnostics, after checking that there are no others.
size_t divergent_barriers(Body body) {
  const std::vector<Diagnostic> found = validate(program_of(buffers(), std::move(body)));
  size_t count = 0;
  for (const Diagnostic& d : found) {
    EXPECT_EQ(d.rule, RuleId::V010) << d.message;
    count += d.rule == RuleId::V010 ? 1 : 0;
  }
  return count;
}

ExprPtr is_zero(ExprPtr e) {
  return eq(std::move(e), u32(0));
}

TEST(Uniformity, BarrierInUniformControlIsFine) {
  EXPECT_EQ(divergent_barriers({barrier(), block({barrier()})}), 0u);
}

TEST(Uniformity, IdSourcesDecideTheCondition) {
  EXPECT_EQ(divergent_barriers({if_(is_zero(local_id(0)), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({if_(is_zero(invocation_id(1)), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({if_(is_zero(workgroup_id(2)), {barrier()})}), 0u);
  EXPECT_EQ(divergent_barriers({if_(is_zero(buflen("rw")), {barrier()})}), 0u);
}

TEST(Uniformity, LoadsAreUniformOnlyFromImmutableBuffersAtUniformIndices) {
  EXPECT_EQ(divergent_barriers({if_(load("ro", u32(0)), {barrier()})}), 0u);
  EXPECT_EQ(divergent_barriers({if_(load("params", workgroup_id(0)), {barrier()})}), 0u);
  EXPECT_EQ(divergent_barriers({if_(load("ro", local_id(0)), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({if_(load("rw", u32(0)), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({if_(load("tile", u32(0)), {barrier()})}), 1u);
}

TEST(Uniformity, AtomicsAreNeverUniform) {
  EXPECT_EQ(divergent_barriers({if_(atomic(AtomicOp::Or, "rw", u32(0), u32(0)), {barrier()})}), 1u);
}

TEST(Uniformity, OperatorsSelectsCastsAndCallsCarryTheirOperands) {
  EXPECT_EQ(divergent_barriers({if_(select(local_id(0), u32(1), u32(1)), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({if_(cast(DataType::Bool, local_id(0)), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({if_(call("primitive.max", {local_id(0), u32(1)}), {barrier()})}),
            1u);
  EXPECT_EQ(
      divergent_barriers({if_(call("primitive.max", {workgroup_id(0), u32(1)}), {barrier()})}), 0u);
  EXPECT_EQ(divergent_barriers({if_(unary(UnOp::Popcount, workgroup_id(0)), {barrier()})}), 0u);
}

TEST(Uniformity, VariablesFollowTheirValues) {
  EXPECT_EQ(divergent_barriers({let("x", local_id(0)), if_(var("x"), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({let("x", workgroup_id(0)), if_(var("x"), {barrier()})}), 0u);
}

TEST(Uniformity, AssignmentUnderDivergentControlMakesAVariableNonUniform) {
  EXPECT_EQ(divergent_barriers({let("x", u32(0)), if_(is_zero(local_id(0)), {assign("x", u32(1))}),
                                if_(var("x"), {barrier()})}),
            1u);
  EXPECT_EQ(
      divergent_barriers({let("x", u32(0)), if_(is_zero(workgroup_id(0)), {assign("x", u32(1))}),
                          if_(var("x"), {barrier()})}),
      0u);
}

TEST(Uniformity, AnalysisIsFlowInsensitiveThroughLoops) {
  // The assignment after the use reaches it on the next iteration.
  EXPECT_EQ(divergent_barriers(
                {let("x", u32(0)), loop("i", u32(0), u32(4),
                                        {if_(var("x"), {barrier()}), assign("x", local_id(0))})}),
            1u);
}

TEST(Uniformity, NonUniformitySpreadsAlongChainsOfAssignments) {
  // c <- b <- a <- LocalId, written in the order that needs every step of
  // the propagation.
  EXPECT_EQ(divergent_barriers({let("a", u32(0)), let("b", u32(0)), let("c", u32(0)),
                                assign("c", var("b")), assign("b", var("a")),
                                assign("a", local_id(0)), if_(var("c"), {barrier()})}),
            1u);
}

TEST(Uniformity, LoopBoundsDecideTheLoopBody) {
  EXPECT_EQ(divergent_barriers({loop("i", u32(0), u32(4), {barrier()})}), 0u);
  EXPECT_EQ(divergent_barriers({loop("i", u32(0), local_id(0), {barrier()})}), 1u);
  EXPECT_EQ(divergent_barriers({loop("i", local_id(0), u32(4), {barrier()})}), 1u);
  // A loop variable of uniform bounds is uniform.
  EXPECT_EQ(divergent_barriers({loop("i", u32(0), u32(4), {if_(var("i"), {barrier()})})}), 0u);
  EXPECT_EQ(divergent_barriers(
                {loop("i", u32(0), local_id(0), {}), loop("j", u32(0), u32(4), {barrier()})}),
            0u);
}

TEST(Uniformity, DivergenceIsInheritedByNestedControl) {
  EXPECT_EQ(divergent_barriers({if_(is_zero(local_id(0)), {if_(u32(1), {barrier()})})}), 1u);
  EXPECT_EQ(
      divergent_barriers({if_(is_zero(local_id(0)), {loop("i", u32(0), u32(2), {barrier()})})}),
      1u);
  EXPECT_EQ(divergent_barriers({if_(is_zero(local_id(0)), {}, {barrier()})}), 1u);
}

TEST(Uniformity, BarrierAfterADivergentReturnIsDivergent) {
  EXPECT_EQ(divergent_barriers({if_(is_zero(local_id(0)), {ret()}), barrier()}), 1u);
  EXPECT_EQ(divergent_barriers({block({if_(is_zero(local_id(0)), {ret()})}), block({barrier()})}),
            1u);
  // A uniform return takes the whole workgroup or none of it.
  EXPECT_EQ(divergent_barriers({if_(is_zero(workgroup_id(0)), {ret()}), barrier()}), 0u);
  // A barrier before the return is reached by everyone.
  EXPECT_EQ(divergent_barriers({barrier(), if_(is_zero(local_id(0)), {ret()})}), 0u);
}

TEST(Uniformity, ReturnInALoopPrecedesTheNextIteration) {
  EXPECT_EQ(divergent_barriers(
                {loop("i", u32(0), u32(4), {barrier(), if_(eq(local_id(0), var("i")), {ret()})})}),
            1u);
  EXPECT_EQ(divergent_barriers({loop("i", u32(0), u32(4),
                                     {barrier(), if_(eq(workgroup_id(0), var("i")), {ret()})})}),
            0u);
}

TEST(Uniformity, TheOtherArmIsNotAfterTheReturn) {
  EXPECT_EQ(divergent_barriers(
                {if_(is_zero(workgroup_id(0)), {if_(is_zero(local_id(0)), {ret()})}, {barrier()})}),
            0u);
}

TEST(Uniformity, EveryDivergentBarrierIsReportedAtItsLocation) {
  Program p = program_of(buffers(), {});
  Body arm;
  arm.push_back(stmt(node::Barrier{}, SourceLoc{4, 5}));
  arm.push_back(stmt(node::Barrier{}, SourceLoc{5, 5}));
  p.entry.push_back(if_(is_zero(local_id(0)), std::move(arm)));
  const std::vector<Diagnostic> found = validate(p);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].loc.line, 4u);
  EXPECT_EQ(found[1].loc.line, 5u);
  EXPECT_EQ(found[1].message,
            "vyre IR validation: barrier may be reached by only part of a workgroup. Fix: move the "
            "barrier to uniform control flow.");
}

TEST(Uniformity, ErroneousNamesAddNoDivergence) {
  const std::vector<Diagnostic> found = validate(program_of(
      buffers(), {if_(var("ghost"), {barrier()}), if_(load("nope", u32(0)), {barrier()})}));
  EXPECT_EQ(rules_of(found), (std::vector<RuleId>{RuleId::V006, RuleId::V004}));
}

}  // namespace
}  // namespace vyre::testing
