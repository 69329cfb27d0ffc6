// plan_batch: submissions at least as asked, slot memory within the budget,
// and distinct slots for the runs of one submission, run 0 alone in slot 0.
#include "backends/vulkan/batch_plan.h"

#include <gtest/gtest.h>

#include <set>

namespace vyre::vulkan {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

TEST(PlanBatch, SmallRunsFollowTheSubmissionsAskedFor) {
  const BatchPlan one = plan_batch({100, 1}, 256, 16 * kMiB);
  EXPECT_EQ(one.chunk, 100u);
  EXPECT_EQ(one.slots, 101u);
  EXPECT_EQ(one.submissions(), 1u);
  const BatchPlan ten = plan_batch({100, 10}, 256, 16 * kMiB);
  EXPECT_EQ(ten.chunk, 10u);
  EXPECT_EQ(ten.submissions(), 10u);
  const BatchPlan three = plan_batch({10, 3}, 256, 16 * kMiB);
  EXPECT_EQ(three.chunk, 4u);  // ceil(10 / 3): runs 0-3, 4-7, 8-9.
  EXPECT_EQ(three.submissions(), 3u);
}

TEST(PlanBatch, LargeRunsTakeMoreSubmissionsToFitTheBudget) {
  // 4 MiB of outputs a run, 16 MiB of slots: 4 runs a submission.
  const BatchPlan plan = plan_batch({100, 1}, 4 * kMiB, 16 * kMiB);
  EXPECT_EQ(plan.chunk, 4u);
  EXPECT_EQ(plan.submissions(), 25u);
  // A run larger than the whole budget still runs, one per submission.
  const BatchPlan huge = plan_batch({5, 1}, 64 * kMiB, 16 * kMiB);
  EXPECT_EQ(huge.chunk, 1u);
  EXPECT_EQ(huge.slots, 2u);
  EXPECT_EQ(huge.submissions(), 5u);
}

TEST(PlanBatch, NoSubmissionHoldsMoreThanTheCap) {
  const BatchPlan plan = plan_batch({1000, 1}, 16, 1024 * kMiB);
  EXPECT_EQ(plan.chunk, kMaxRunsPerSubmission);
  EXPECT_EQ(plan.submissions(), 4u);
}

TEST(PlanBatch, DegenerateOptionsAreClamped) {
  const BatchPlan zero = plan_batch({0, 0}, 0, 0);
  EXPECT_EQ(zero.runs, 1u);
  EXPECT_EQ(zero.slots, 1u);
  EXPECT_EQ(zero.submissions(), 1u);
  const BatchPlan more = plan_batch({3, 9}, 16, kMiB);  // More submissions than runs.
  EXPECT_EQ(more.chunk, 1u);
  EXPECT_EQ(more.submissions(), 3u);
}

TEST(PlanBatch, RunsOfOneSubmissionHaveDistinctSlotsAndOnlyRunZeroHasSlotZero) {
  for (const BatchOptions& options :
       {BatchOptions{100, 1}, BatchOptions{100, 7}, BatchOptions{10, 3}, BatchOptions{7, 7},
        BatchOptions{2, 1}}) {
    const BatchPlan plan = plan_batch(options, 64, 16 * kMiB);
    for (uint32_t first = 0; first < plan.runs; first += plan.chunk) {
      std::set<uint32_t> taken;
      for (uint32_t run = first; run < std::min(plan.runs, first + plan.chunk); ++run) {
        const uint32_t slot = plan.slot_of(run);
        EXPECT_LT(slot, plan.slots);
        EXPECT_EQ(slot == 0, run == 0) << run;
        EXPECT_TRUE(taken.insert(slot).second) << "run " << run << " shares slot " << slot;
      }
    }
    EXPECT_GE(plan.submissions(), options.submissions);
  }
}

}  // namespace
}  // namespace vyre::vulkan
