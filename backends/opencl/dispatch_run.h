// One dispatch on an OpenCL queue: buffers, arguments, the kernel, readback,
// each wait bounded by a deadline.
#pragma once

#include <chrono>

#include "backends/backend.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/kernel_cache.h"

namespace vyre::opencl {

/// Everything one dispatch needs besides the queue.
struct DispatchRequest {
  const BuiltKernel& kernel;
  const KernelInterface& iface;
  const BufferSet& inputs;
  const Grid& grid;
  std::chrono::milliseconds timeout;
};

/// Runs one dispatch with buffers from `pool`. Statuses: Timeout when a wait passes `timeout` (the
/// queue is then abandoned, see ClQueue) or the loop iteration budget ran
/// out; DeviceLost when the kernel ended in an execution error; NotSupported
/// when the device lacks the memory or resources; Error for anything else.
DispatchOutcome run_dispatch(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                             const std::string& device_name, const DispatchRequest& request);

}  // namespace vyre::opencl
