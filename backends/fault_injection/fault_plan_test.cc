#include "backends/fault_injection/fault_plan.h"

#include <gtest/gtest.h>

namespace vyre {
namespace {

TEST(FaultPlan, ParsesEveryKindAndForm) {
  auto plan = parse_fault_plan(
      "device-lost@3,hang@5+,wrong-bytes%100,truncate@1,alloc-fail@2,crash@9,seed=42");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  ASSERT_EQ(plan->items.size(), 6u);
  EXPECT_EQ(plan->seed, 42u);
  EXPECT_EQ(plan->items[0].kind, FaultKind::DeviceLost);
  EXPECT_EQ(plan->items[0].at, 3u);
  EXPECT_FALSE(plan->items[0].persistent);
  EXPECT_EQ(plan->items[1].kind, FaultKind::Hang);
  EXPECT_TRUE(plan->items[1].persistent);
  EXPECT_EQ(plan->items[2].kind, FaultKind::WrongBytes);
  EXPECT_EQ(plan->items[2].one_in, 100u);
  EXPECT_EQ(plan->items[3].kind, FaultKind::TruncatedReadback);
  EXPECT_EQ(plan->items[4].kind, FaultKind::AllocationFailure);
  EXPECT_EQ(plan->items[5].kind, FaultKind::Crash);
  EXPECT_TRUE(plan->crashes());
}

TEST(FaultPlan, RejectsBadItemsSayingWhy) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "empty item"},
      {"device-lost", "no `@N` or `%P`"},
      {"melt@3", "unknown fault kind `melt`"},
      {"hang@0", "call number from 1"},
      {"hang@x", "call number from 1"},
      {"hang%0", "positive number"},
      {"hang@2,,crash@3", "empty item"},
      {"seed=1", "names no fault"},
      {"hang@1,seed=1,seed=2", "seed is given twice"},
      {"hang@1,seed=-1", "S must be a number"},
  };
  for (const auto& [spec, why] : bad) {
    auto plan = parse_fault_plan(spec);
    ASSERT_FALSE(plan.ok()) << spec;
    EXPECT_NE(plan.error().message.find(why), std::string::npos)
        << spec << ": " << plan.error().message;
  }
}

TEST(FaultPlan, OnceFiresAtItsCallOnlyAndPersistentFromItsCallOn) {
  auto plan = parse_fault_plan("hang@3,device-lost@5+");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(fault_at(*plan, 1), std::nullopt);
  EXPECT_EQ(fault_at(*plan, 3), FaultKind::Hang);
  EXPECT_EQ(fault_at(*plan, 4), std::nullopt);
  EXPECT_EQ(fault_at(*plan, 5), FaultKind::DeviceLost);
  EXPECT_EQ(fault_at(*plan, 500), FaultKind::DeviceLost);
}

TEST(FaultPlan, TheFirstListedItemWinsACall) {
  auto plan = parse_fault_plan("alloc-fail@2,device-lost@1+");
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(fault_at(*plan, 1), FaultKind::DeviceLost);
  EXPECT_EQ(fault_at(*plan, 2), FaultKind::AllocationFailure);
}

TEST(FaultPlan, SeededItemsFireAboutOnceInPAndFollowTheSeed) {
  auto a = parse_fault_plan("wrong-bytes%10,seed=7");
  auto b = parse_fault_plan("wrong-bytes%10,seed=8");
  ASSERT_TRUE(a.ok() && b.ok());
  uint32_t fired = 0;
  uint32_t same = 0;
  constexpr uint32_t kCalls = 10000;
  for (uint64_t call = 1; call <= kCalls; ++call) {
    const bool in_a = fault_at(*a, call).has_value();
    fired += in_a;
    same += in_a == fault_at(*b, call).has_value();
    // The same seed gives the same calls, every time.
    EXPECT_EQ(in_a, fault_at(*a, call).has_value());
  }
  EXPECT_GT(fired, kCalls / 20);
  EXPECT_LT(fired, kCalls / 5);
  EXPECT_LT(same, kCalls);  // another seed, other calls
}

}  // namespace
}  // namespace vyre
