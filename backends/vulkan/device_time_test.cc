// Device time on a Vulkan device (lavapipe in CI): timestamp queries around
// every submission give each dispatch and batch the device's own execution
// time, never negative and never more than the call's wall time, on the
// in-place and the staging path. On a CPU device (lavapipe) a dispatch of at
// most 64 KiB of buffers runs untimed: there the timestamps cost more than
// the dispatch.
#include <gtest/gtest.h>

#include "backends/vulkan/vulkan_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::repeat;

/// out[i] = in[i] * 3 + 1 over 16384 invocations: enough work to measure,
/// with 128 KiB of buffers, past the 64 KiB a CPU device runs untimed.
const Program kMeasuredTriple{
    {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
    {64, 1, 1},
    {store("out", invocation_id(0), add(mul(load("in", invocation_id(0)), u32(3)), u32(1)))}};

BufferSet measured_inputs() {
  return {{"in", repeat(7, 16384)}, {"out", repeat(0, 16384)}};
}

const Grid kMeasuredGrid{{256, 1, 1}};

void expect_device_time_measured(Backend& backend) {
  CompileOutcome compiled = backend.compile(kMeasuredTriple);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;

  const DispatchOutcome one = backend.dispatch(*compiled.program, measured_inputs(), kMeasuredGrid);
  ASSERT_EQ(one.status, Status::Ok) << one.message;
  ASSERT_TRUE(one.timing.device_ms.has_value()) << "lavapipe's queue writes timestamps";
  EXPECT_GE(*one.timing.device_ms, 0.0);
  // The submission lies within execute(): recording, submitting, waiting.
  EXPECT_LE(*one.timing.device_ms, one.timing.execute_ms);

  const BatchOutcome batch =
      backend.dispatch_runs(*compiled.program, measured_inputs(), kMeasuredGrid, {20, 4});
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  ASSERT_GE(batch.submissions, 4u);
  ASSERT_TRUE(batch.timing.device_ms.has_value());
  EXPECT_GT(*batch.timing.device_ms, 0.0) << "20 runs of 16384 invocations take device time";
  EXPECT_LE(*batch.timing.device_ms, batch.timing.total_ms);
}

TEST(VulkanDeviceTime, MeasuredWithinTheWallTimeInPlace) {
  expect_device_time_measured(testing::shared_backend());
}

TEST(VulkanDeviceTime, MeasuredWithinTheWallTimeOnTheStagedPath) {
  BackendOptions options;
  options.force_staging = true;
  VulkanBackend staged{options};
  expect_device_time_measured(staged);
}

TEST(VulkanDeviceTime, ASmallDispatchOnACpuDeviceRunsUntimedAndABatchOfItTimed) {
  VulkanBackend& backend = testing::shared_backend();
  ASSERT_NE(backend.probe().device_name.find("llvmpipe"), std::string::npos)
      << "this test needs lavapipe, a CPU device";
  CompileOutcome compiled = backend.compile(kMeasuredTriple);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  // 2 x 32 KiB: exactly the 64 KiB a CPU device runs untimed.
  const BufferSet small = {{"in", repeat(7, 8192)}, {"out", repeat(0, 8192)}};
  const Grid grid{{128, 1, 1}};
  const DispatchOutcome one = backend.dispatch(*compiled.program, small, grid);
  ASSERT_EQ(one.status, Status::Ok) << one.message;
  EXPECT_EQ(one.outputs.at("out"), repeat(22, 8192));
  EXPECT_FALSE(one.timing.device_ms.has_value());

  const BatchOutcome batch = backend.dispatch_runs(*compiled.program, small, grid, {20, 4});
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_TRUE(batch.timing.device_ms.has_value());
}

}  // namespace
}  // namespace vyre::vulkan
