// V017 V018 V019 V030 at their boundaries and far past them: huge or deep
// programs are rejected with the limit rule, never a stack overflow; the
// recursive families still run on those shallow and small enough to walk.
#include <gtest/gtest.h>

#include "spec/validate/test_support.h"

namespace vyre::testing {
namespace {

using namespace vyre::build;

std::vector<RuleId> rules_and_dismantle(Program p) {
  std::vector<RuleId> rules = rules_of(validate(p));
  dismantle(std::move(p.entry));
  return rules;
}

/// Tree size and depth by plain recursion, independent of the validator.
std::pair<uint64_t, uint64_t> size_and_depth(const ExprPtr& e) {
  uint64_t size = 1, deepest = 0;
  for (const ExprPtr& child : {e->as<expr::Binary>() ? e->as<expr::Binary>()->left : nullptr,
                               e->as<expr::Binary>() ? e->as<expr::Binary>()->right : nullptr,
                               e->as<expr::Unary>() ? e->as<expr::Unary>()->operand : nullptr}) {
    if (child == nullptr) continue;
    const auto [s, d] = size_and_depth(child);
    size += s;
    deepest = std::max(deepest, d);
  }
  return {size, deepest + 1};
}

TEST(Limits, ExpressionOfSizeHasExactlyThatSize) {
  std::vector<uint64_t> sizes = {99999, 100000, 123457};
  for (uint64_t n = 1; n <= 300; ++n) sizes.push_back(n);
  for (uint64_t n : sizes) {
    const auto [size, depth] = size_and_depth(expression_of_size(n));
    EXPECT_EQ(size, n);
    EXPECT_LE(depth, 64u) << n;
  }
}

TEST(Limits, AMillionNodesIsV019) {
  const std::vector<Diagnostic> found = validate(simple(Body(1000000, barrier())));
  ASSERT_EQ(rules_of(found), std::vector<RuleId>{RuleId::V019});
  EXPECT_EQ(found[0].message,
            "vyre IR validation: V019: program has more than 100000 statement nodes. Fix: split "
            "the program into smaller kernels or run an optimization pass before lowering.");
}

TEST(Limits, NodeCountIncludesExpressions) {
  // 50000 stores of 2 literals: 150000 nodes, though only 50000 statements.
  EXPECT_EQ(rules_of(validate(simple(Body(50000, store("out", u32(0), u32(1)))))),
            std::vector<RuleId>{RuleId::V019});
  EXPECT_TRUE(validate(simple(Body(33333, store("out", u32(0), u32(1))))).empty());
}

TEST(Limits, SharedSubexpressionsCountOncePerUse) {
  // 31 distinct nodes standing for a tree of 2^31 - 1 nodes.
  ExprPtr e = u32(1);
  for (int i = 0; i < 30; ++i) e = add(e, e);
  EXPECT_EQ(rules_of(validate(simple({let("x", e)}))), std::vector<RuleId>{RuleId::V019});
  // 2^16 - 1 nodes: within the limit.
  ExprPtr small = u32(1);
  for (int i = 0; i < 15; ++i) small = add(small, small);
  EXPECT_TRUE(validate(simple({let("x", small)})).empty());
}

TEST(Limits, NestingOfAHundredThousandIsV018) {
  Program p = simple(nested_blocks(100000));
  const std::vector<Diagnostic> found = validate(p);
  dismantle(std::move(p.entry));
  ASSERT_EQ(rules_of(found), std::vector<RuleId>{RuleId::V018});
  EXPECT_EQ(found[0].message,
            "vyre IR validation: V018: program nesting depth 100000 exceeds max 64. Fix: flatten "
            "nested If/Loop/Block structures or split the program before lowering.");
}

TEST(Limits, NestingCountsIfAndLoopToo) {
  Body body;
  for (int i = 0; i < 65; ++i) {
    Body outer;
    if (i % 3 == 0) outer.push_back(if_(u32(1), std::move(body)));
    if (i % 3 == 1) outer.push_back(loop("i" + std::to_string(i), u32(0), u32(1), std::move(body)));
    if (i % 3 == 2) outer.push_back(if_(u32(1), {}, std::move(body)));
    body = std::move(outer);
  }
  EXPECT_EQ(rules_and_dismantle(simple(std::move(body))), std::vector<RuleId>{RuleId::V018});
}

TEST(Limits, ExpressionDepthOfAHundredThousandIsV030) {
  const DeepExpression chain(100000);
  const std::vector<Diagnostic> found = validate(simple({let("x", chain.root())}));
  // 100001 nodes: over V019's limit as well.
  ASSERT_EQ(rules_of(found), (std::vector<RuleId>{RuleId::V030, RuleId::V019}));
  EXPECT_EQ(found[0].message,
            "vyre IR validation: expression depth 100000 exceeds max 128. Fix: bind subexpressions "
            "to locals with `let` to flatten the expression.");
}

TEST(Limits, EachTooDeepOperandIsReported) {
  const DeepExpression chain(200);
  const std::vector<Diagnostic> found =
      validate(simple({store("out", chain.root(), u32(1)), if_(chain.root(), {})}));
  EXPECT_EQ(rules_of(found), (std::vector<RuleId>{RuleId::V030, RuleId::V030}));
}

TEST(Limits, IndependentErrorsBesideALimitAreCollected) {
  // Nested 70 deep (V018) yet shallow enough to walk: the undeclared
  // variable inside is reported too.
  const std::vector<Diagnostic> found = validate(program_of(
      {storage("a", 0, BufferAccess::ReadWrite), storage("a", 1, BufferAccess::ReadWrite)},
      nested_blocks(70, {let("y", var("ghost"))}), {0, 1, 1}));
  EXPECT_EQ(rules_of(found),
            (std::vector<RuleId>{RuleId::V001, RuleId::V003, RuleId::V018, RuleId::V006}));
  // Past V030 and V019 the same.
  const DeepExpression chain(200);
  EXPECT_EQ(rules_of(validate(simple({let("x", chain.root()), let("y", var("ghost"))}))),
            (std::vector<RuleId>{RuleId::V030, RuleId::V006}));
  Body many(100001, barrier());
  many.push_back(store("nope", u32(0), u32(1)));
  EXPECT_EQ(rules_of(validate(simple(std::move(many)))),
            (std::vector<RuleId>{RuleId::V019, RuleId::V004}));
}

TEST(Limits, TreesTooDeepOrBigToWalkSkipTheRecursiveFamilies) {
  // The recursive families walk as deep as the text format nests
  // (kMaxTextNesting: 511 blocks around a 1-deep expression), no deeper.
  EXPECT_EQ(rules_and_dismantle(simple(nested_blocks(511, {let("y", var("ghost"))}))),
            (std::vector<RuleId>{RuleId::V018, RuleId::V006}));
  EXPECT_EQ(rules_and_dismantle(simple(nested_blocks(512, {let("y", var("ghost"))}))),
            std::vector<RuleId>{RuleId::V018});
  EXPECT_EQ(rules_and_dismantle(simple(nested_blocks(100000, {let("y", var("ghost"))}))),
            (std::vector<RuleId>{RuleId::V018, RuleId::V019}));
  // Nor past ten times V019's limit, counting shared subexpressions per use.
  Body many(1000000, barrier());
  many.push_back(let("y", var("ghost")));
  EXPECT_EQ(rules_of(validate(simple(std::move(many)))), std::vector<RuleId>{RuleId::V019});
  ExprPtr e = u32(1);
  for (int i = 0; i < 30; ++i) e = add(e, e);
  EXPECT_EQ(rules_of(validate(simple({let("x", e), let("y", var("ghost"))}))),
            std::vector<RuleId>{RuleId::V019});
}

TEST(Limits, CallDepthBoundaryIs32) {
  const OpRegistry ops = call_chain(33);
  EXPECT_TRUE(validate(simple({let("x", call("chain.1", {u32(1)}))}), ops).empty());
  EXPECT_EQ(rules_of(validate(simple({let("x", call("chain.0", {u32(1)}))}), ops)),
            std::vector<RuleId>{RuleId::V017});
}

TEST(Limits, ArgumentsAddNoCallDepth) {
  // Calls nested in arguments run one after another, not inside each other.
  ExprPtr e = u32(1);
  for (int i = 0; i < 40; ++i) e = call("primitive.popcount", {e});
  EXPECT_TRUE(validate(simple({let("x", e)})).empty());
}

TEST(Limits, CyclicCompositionsAreTooDeep) {
  OpRegistry ops;
  ops.add(OpSpec{"ping", 1, true, call("pong", {var("a")}), {}, "calls pong"});
  ops.add(OpSpec{"pong", 1, true, call("ping", {var("a")}), {}, "calls ping"});
  ops.add(OpSpec{"self", 1, true, add(call("self", {var("a")}), var("a")), {}, "calls itself"});
  EXPECT_EQ(
      rules_of(validate(simple({let("x", call("ping", {u32(1)})), let("y", call("pong", {u32(1)})),
                                let("z", call("self", {u32(1)}))}),
                        ops)),
      (std::vector<RuleId>{RuleId::V017, RuleId::V017, RuleId::V017}));
}

TEST(Limits, LongCompositionChainsAreTooDeep) {
  // OpRegistry::add is linear, so the chain stays at a few thousand links.
  const OpRegistry ops = call_chain(5000);
  EXPECT_EQ(rules_of(validate(simple({let("x", call("chain.0", {u32(1)}))}), ops)),
            std::vector<RuleId>{RuleId::V017});
}

}  // namespace
}  // namespace vyre::testing
