// Device time on an OpenCL device (PoCL in CI): event profiling gives each
// dispatch and batch the device's own kernel time, never negative and never
// more than the call's wall time; commands of several queues that overlap
// count once (busy_ms, on fake events with hand-written times).
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "backends/opencl/event_wait.h"
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

/// Fake events: event k (1-based) ran from kIntervals[k - 1].first to
/// .second nanoseconds; event 9 has no profiling times.
constexpr std::pair<cl_ulong, cl_ulong> kIntervals[] = {
    {100, 200}, {150, 400}, {1000, 1100}, {390, 420}, {2000, 2000}};

cl_int CL_API_CALL fake_profiling_info(cl_event event, cl_profiling_info what, size_t size,
                                       void* value, size_t*) {
  const auto k = reinterpret_cast<uintptr_t>(event);
  if (k == 9 || size != sizeof(cl_ulong)) return CL_PROFILING_INFO_NOT_AVAILABLE;
  const auto& [start, end] = kIntervals[k - 1];
  *static_cast<cl_ulong*>(value) = what == CL_PROFILING_COMMAND_START ? start : end;
  return CL_SUCCESS;
}

cl_event fake_event(uintptr_t k) {
  return reinterpret_cast<cl_event>(k);
}

TEST(OpenClBusyTime, OverlappingCommandsCountOnceAndSeparateOnesAdd) {
  OpenClApi api;
  api.clGetEventProfilingInfo = fake_profiling_info;
  // [100, 420) covered by the first, second and fourth; [1000, 1100) apart;
  // an empty command adds nothing; null entries are skipped.
  const std::vector<cl_event> events{fake_event(4), nullptr,       fake_event(2),
                                     fake_event(1), fake_event(3), fake_event(5)};
  EXPECT_DOUBLE_EQ(*busy_ms(api, events), (320 + 100) / 1e6);
  const std::vector<cl_event> apart{fake_event(1), fake_event(3)};
  EXPECT_DOUBLE_EQ(*busy_ms(api, apart), (100 + 100) / 1e6);
  EXPECT_EQ(busy_ms(api, {}), 0.0);
  const std::vector<cl_event> unmeasured{fake_event(1), fake_event(9)};
  EXPECT_FALSE(busy_ms(api, unmeasured).has_value());
}

}  // namespace
}  // namespace vyre::opencl
