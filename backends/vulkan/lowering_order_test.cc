// SEMANTICS S4 evaluation order, made observable with atomics on a counter:
// each atomic returns the counter before it, so the values read back say in
// which order the operands ran.
#include <gtest/gtest.h>

#include "backends/vulkan/vulkan_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::Case;
using testing::expect_case;
using testing::words;

ExprPtr bump(uint32_t by) {
  return atomic(AtomicOp::Add, "ctr", u32(0), u32(by));
}

const BufferDecl kCounter = storage("ctr", 0, BufferAccess::ReadWrite);
const BufferDecl kOut = storage("out", 1, BufferAccess::ReadWrite);

TEST(VulkanLowering, S4_BinOpEvaluatesLeftThenRight) {
  // ctr = 5: left gets 5, right 6; 5 - 6 wraps. Right-to-left would give 1.
  Case c{{{kCounter, kOut}, {1, 1, 1}, {store("out", u32(0), sub(bump(1), bump(1)))}},
         1,
         true,
         {{"ctr", words({5})}},
         {{"out", 1}},
         {{"ctr", words({7})}, {"out", words({0xFFFFFFFF})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_SelectEvaluatesCondThenBothArms) {
  // cond sees 0 (false) and adds 100; the true arm sees 100 and adds 1; the
  // false arm, picked, sees 101 and adds 10.
  Case c{
      {{kCounter, kOut}, {1, 1, 1}, {store("out", u32(0), select(bump(100), bump(1), bump(10)))}},
      1,
      true,
      {{"ctr", words({0})}},
      {{"out", 1}},
      {{"ctr", words({111})}, {"out", words({101})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_SelectWithBoolConditionPicksTrueArm) {
  Case c{{{kCounter, kOut},
          {1, 1, 1},
          {store("out", u32(0), select(boolean(true), bump(1), bump(10)))}},
         1,
         true,
         {{"ctr", words({0})}},
         {{"out", 1}},
         {{"ctr", words({11})}, {"out", words({0})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_AtomicEvaluatesIndexExpectedValue) {
  // k = 0: index 0, expected 1, value 2. cas[0] = 1 matches, so it becomes 2
  // and the old value 1 is returned.
  const ExprPtr k = atomic(AtomicOp::Add, "ctr", u32(0), u32(1));
  Case c{{{kCounter, kOut, storage("cas", 2, BufferAccess::ReadWrite)},
          {1, 1, 1},
          {store("out", u32(0), compare_exchange("cas", k, k, k))}},
         1,
         true,
         {{"ctr", words({0})}, {"cas", words({1})}},
         {{"out", 1}},
         {{"ctr", words({3})}, {"cas", words({2})}, {"out", words({1})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_StoreEvaluatesIndexThenValue) {
  const ExprPtr k = atomic(AtomicOp::Add, "ctr", u32(0), u32(1));
  Case c{{{kCounter, kOut}, {1, 1, 1}, {store("out", k, k)}},
         1,
         true,
         {{"ctr", words({0})}},
         {{"out", 1}},
         {{"ctr", words({2})}, {"out", words({1})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_CallEvaluatesEachArgumentOnceLeftToRight) {
  // primitive.min uses each parameter twice; inlining the argument
  // expressions instead of their values would bump the counter four times.
  Case c{{{kCounter, kOut},
          {1, 1, 1},
          {store("out", u32(0), call("primitive.min", {bump(1), bump(10)}))}},
         1,
         true,
         {{"ctr", words({5})}},
         {{"out", 1}},
         {{"ctr", words({16})}, {"out", words({5})}}};
  expect_case(c);
}

TEST(VulkanLowering, S4_NestedCallsInline) {
  // clamp(a, b, c) = min(max(a, b), c), itself two calls.
  Case c{{{storage("in", 0, BufferAccess::ReadOnly), kOut},
          {1, 1, 1},
          {store("out", invocation_id(0),
                 call("primitive.clamp", {load("in", invocation_id(0)), u32(10), u32(20)}))}},
         3,
         true,
         {{"in", words({5, 15, 0xFFFFFFFF})}},
         {{"out", 3}},
         {{"out", words({10, 15, 20})}}};
  expect_case(c);
}

TEST(VulkanLowering, S5_AtomicsReturnTheOldValue) {
  // One invocation, one counter per op, each starting at 6 with operand 3.
  const AtomicOp ops[] = {AtomicOp::Add, AtomicOp::Or,  AtomicOp::And,     AtomicOp::Xor,
                          AtomicOp::Min, AtomicOp::Max, AtomicOp::Exchange};
  const std::vector<uint32_t> after = {9, 7, 2, 5, 3, 6, 3};
  Body body;
  for (uint32_t i = 0; i < std::size(ops); ++i) {
    body.push_back(store("out", u32(i), atomic(ops[i], "ctr", u32(i), u32(3))));
  }
  Case c{{{kCounter, kOut}, {1, 1, 1}, body},
         1,
         true,
         {{"ctr", words(std::vector<uint32_t>(7, 6))}},
         {{"out", 7}},
         {{"ctr", words(after)}, {"out", words(std::vector<uint32_t>(7, 6))}}};
  expect_case(c);
}

TEST(VulkanLowering, S5_AtomicMinMaxAreUnsigned) {
  Case c{{{kCounter, kOut},
          {1, 1, 1},
          {store("out", u32(0), atomic(AtomicOp::Min, "ctr", u32(0), u32(0x80000000))),
           store("out", u32(1), atomic(AtomicOp::Max, "ctr", u32(1), u32(0x80000000)))}},
         1,
         true,
         {{"ctr", words({5, 5})}},
         {{"out", 2}},
         {{"ctr", words({5, 0x80000000})}, {"out", words({5, 5})}}};
  expect_case(c);
}

TEST(VulkanLowering, S5_CompareExchangeWritesOnlyOnMatch) {
  Case c{{{kCounter, kOut},
          {1, 1, 1},
          {store("out", u32(0), compare_exchange("ctr", u32(0), u32(4), u32(9))),
           store("out", u32(1), compare_exchange("ctr", u32(1), u32(5), u32(9)))}},
         1,
         true,
         {{"ctr", words({5, 5})}},
         {{"out", 2}},
         {{"ctr", words({5, 9})}, {"out", words({5, 5})}}};
  expect_case(c);
}

TEST(VulkanLowering, S5_ContendedAtomicsAllLand) {
  // 200 invocations over several workgroups: every add lands once, max wins.
  Case c{{{kCounter},
          {1, 1, 1},
          {let("old", atomic(AtomicOp::Add, "ctr", u32(0), u32(1))),
           let("m", atomic(AtomicOp::Max, "ctr", u32(1), invocation_id(0))),
           // Strong compare-exchange: each invocation's swap on its own slot succeeds.
           let("swapped", compare_exchange("ctr", add(invocation_id(0), u32(2)), u32(0), u32(1)))}},
         200,
         true,
         {{"ctr", ByteBuffer(202 * 4, 0)}},
         {},
         {{"ctr", [] {
             std::vector<uint32_t> w(202, 1);
             w[0] = 200;
             w[1] = 199;
             return words(w);
           }()}}};
  expect_case(c);
}

TEST(VulkanLowering, S5_AtomicsInLoopsAfterOtherInvocationsReturned) {
  // Invocation 0 loops over atomics while the rest of its workgroup has
  // returned. lavapipe treats memory fences as workgroup barriers, so fenced
  // atomics here once stopped invocation 0 after its first iterations.
  Case c{{{kCounter, kOut},
          {1, 1, 1},
          {if_(ne(invocation_id(0), u32(0)), {ret()}),
           loop("i", u32(0), u32(4),
                {loop("j", u32(0), u32(2),
                      {let("old", atomic(AtomicOp::Or, "ctr", u32(0), shl(u32(1), var("i"))))}),
                 store("out", var("i"), add(var("i"), u32(100)))})}},
         64,
         false,
         {{"ctr", words({0})}},
         {{"out", 4}},
         {{"ctr", words({15})}, {"out", words({100, 101, 102, 103})}}};
  expect_case(c);
}

}  // namespace
}  // namespace vyre::vulkan
