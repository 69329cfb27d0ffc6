// Device time on an OpenCL device (PoCL in CI): event profiling gives each
// dispatch and batch the device's own kernel time, never negative and never
// more than the call's wall time.
#include <gtest/gtest.h>

#include "backends/opencl/opencl_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::opencl {
namespace {

using namespace vyre::build;

/// out[i] = in[i] * 3 + 1 over 4096 invocations: enough work to measure.
const Program kMeasuredTimesThree{
    {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
    {64, 1, 1},
    {store("out", invocation_id(0), add(mul(load("in", invocation_id(0)), u32(3)), u32(1)))}};

BufferSet measured_inputs() {
  return {{"in", ByteBuffer(4 * 4096, 7)}, {"out", ByteBuffer(4 * 4096, 0)}};
}

TEST(OpenClDeviceTime, KernelTimesAreMeasuredWithinTheWallTime) {
  OpenClBackend& backend = testing::shared_backend();
  CompileOutcome compiled = backend.compile(kMeasuredTimesThree);
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  const Grid grid{{64, 1, 1}};

  const DispatchOutcome one = backend.dispatch(*compiled.program, measured_inputs(), grid);
  ASSERT_EQ(one.status, Status::Ok) << one.message;
  ASSERT_TRUE(one.timing.device_ms.has_value()) << "PoCL's queues profile";
  EXPECT_GE(*one.timing.device_ms, 0.0);
  EXPECT_LE(*one.timing.device_ms, one.timing.execute_ms);

  const BatchOutcome batch =
      backend.dispatch_runs(*compiled.program, measured_inputs(), grid, {20, 4});
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  ASSERT_TRUE(batch.timing.device_ms.has_value());
  EXPECT_GT(*batch.timing.device_ms, 0.0) << "20 runs of 4096 invocations take device time";
  EXPECT_LE(*batch.timing.device_ms, batch.timing.total_ms);
}

}  // namespace
}  // namespace vyre::opencl
