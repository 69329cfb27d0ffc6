// The checks every C-like backend's dispatch shares: buffer bytes, the words
// of a limit's message, u32 invocation ids at their boundary, the loop
// budget's message per API.
#include "backends/clike/dispatch_limits.h"

#include <gtest/gtest.h>

namespace vyre::clike {
namespace {

TEST(DispatchLimits, DeviceBuffersAreWholeWordsAndNeverEmpty) {
  EXPECT_EQ(device_buffer_bytes(0), 16u);
  EXPECT_EQ(device_buffer_bytes(15), 16u);
  EXPECT_EQ(device_buffer_bytes(17), 20u);
  EXPECT_EQ(device_buffer_bytes(4096), 4096u);
  EXPECT_EQ(device_buffer_bytes(0xFFFFFFFE), 0x100000000u);
}

TEST(DispatchLimits, ALimitIsNamedWithItsValueAndTheDevice) {
  EXPECT_EQ(exceeds("workgroup size on y", 2048, "CL_DEVICE_MAX_WORK_ITEM_SIZES", 1024, "GPU 0"),
            "workgroup size on y 2048 exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES = 1024 of GPU 0");
  EXPECT_EQ(axis_name(0), "x");
  EXPECT_EQ(axis_name(2), "z");
}

TEST(DispatchLimits, InvocationIdsFitU32UpToTheLastId) {
  EXPECT_FALSE(u32_invocations_exceeded(0, 0xFFFFFFFFu, 1));
  EXPECT_FALSE(u32_invocations_exceeded(1, 0x00FFFFFFu, 256));  // 2^32 - 256 invocations.
  const std::optional<std::string> past = u32_invocations_exceeded(2, 0x01000000u, 256);
  ASSERT_TRUE(past);
  EXPECT_EQ(*past,
            "invocations on z 4294967296 (16777216 workgroups of 256) exceeds 4294967295, the "
            "most that u32 invocation ids can number");
}

TEST(DispatchLimits, TheLoopBudgetMessageNamesTheApiAndTheWayOut) {
  const std::string message = loop_budget_message("OpenCL", 1000);
  EXPECT_NE(message.find("more than 1000 loop iterations"), std::string::npos) << message;
  EXPECT_NE(message.find("the OpenCL backend stops runaway loops"), std::string::npos) << message;
  EXPECT_NE(message.find("BackendOptions::loop_iteration_budget"), std::string::npos) << message;
  // The flag proves no runaway loop by itself: a miscompiled guard sets it too.
  EXPECT_NE(message.find("suspect the driver"), std::string::npos) << message;
}

}  // namespace
}  // namespace vyre::clike
