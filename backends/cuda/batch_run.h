// Runs of one loaded kernel on a context's stream: inputs uploaded once, each
// run's read_write buffers initialised on the device from a pristine copy,
// the runs of a submission launched back to back and waited for once, with a
// deadline; outputs read back and compared with run 0's on the host. A single
// dispatch is a batch of one run.
#pragma once

#include <chrono>
#include <string>

#include "backends/backend.h"
#include "backends/cuda/batch_plan.h"
#include "backends/cuda/module_cache.h"

namespace vyre::cuda {

/// What run_batch needs; the inputs passed clike::check_host_inputs and exceeded_limit.
struct BatchRequest {
  const LoadedKernel& kernel;
  const KernelInterface& iface;
  const BufferSet& inputs;
  const Grid& grid;
  BatchOptions options;
  /// Longest wait per run; a submission of n runs waits n times as long.
  std::chrono::milliseconds timeout{10'000};
  std::string device_name;
  uint64_t slot_budget_bytes = kBatchSlotBytes;
};

/// A batch's outcome and, for a single run, its phases' times.
struct BatchResult {
  BatchOutcome outcome;
  DispatchTiming timing;
};

/// Runs the batch on `context` (made current by the caller). Statuses:
/// Timeout when a submission passes its deadline (the context is then
/// abandoned) or an invocation ran out of its loop iteration budget;
/// DeviceLost when a kernel faulted (the context is marked lost);
/// NotSupported when the device lacks memory or launch resources; Error for
/// anything else. Leaves setup_ms and total_ms to the caller.
BatchResult run_batch(const CudaApi& api, CudaContext& context, const BatchRequest& request);

}  // namespace vyre::cuda
