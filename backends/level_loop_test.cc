// next_level_group: how a device-resident level loop sizes its next group of
// levels. The expectations are the rule's own arithmetic, written out.
#include "backends/level_loop.h"

#include <gtest/gtest.h>

#include <chrono>

namespace vyre {
namespace {

using std::chrono::milliseconds;

TEST(NextLevelGroup, FastGroupsDoubleUpToTheMostPerWait) {
  const milliseconds timeout{10'000};
  EXPECT_EQ(next_level_group(2, milliseconds{1}, timeout), 4u);
  EXPECT_EQ(next_level_group(4, milliseconds{1}, timeout), 8u);
  EXPECT_EQ(next_level_group(16, milliseconds{1}, timeout), kMaxLevelsPerWait);
  EXPECT_EQ(next_level_group(kMaxLevelsPerWait, milliseconds{1}, timeout), kMaxLevelsPerWait);
}

TEST(NextLevelGroup, SlowLevelsKeepAGroupWithinAQuarterOfTheTimeout) {
  const milliseconds timeout{1'000};  // A quarter: 250 ms.
  // 8 levels in 400 ms: 50 ms a level, so 5 fit in 250 ms (less than 16).
  EXPECT_EQ(next_level_group(8, milliseconds{400}, timeout), 5u);
  // A level slower than the quarter: still one level a group, never none.
  EXPECT_EQ(next_level_group(2, milliseconds{2'000}, timeout), 1u);
  // A group of no levels (never asked for) is read as one.
  EXPECT_EQ(next_level_group(0, milliseconds{1}, timeout), 1u);
}

}  // namespace
}  // namespace vyre
