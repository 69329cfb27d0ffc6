// Many runs of one dispatch, enqueued together and waited for once per
// submission: inputs uploaded once and kept resident, every run's outputs
// packed into one buffer, and saved, compared with run 0 and made fresh
// again from a pristine copy on the device by one small kernel, so that a
// run is two enqueues and only run 0's outputs, the flags and the
// differing runs cross to the host. Runs may spread over
// several queues (streams), each with its own packed buffer, to run side by
// side. Design: DESIGN.md ("Batched runs").
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/kernel_interface.h"
#include "backends/opencl/program_builder.h"

namespace vyre::opencl {

/// Most runs enqueued before one wait.
inline constexpr uint32_t kMaxRunsPerSubmission = 256;
/// Bytes of run outputs a batch holds at once; more runs spread over more
/// submissions.
inline constexpr uint64_t kBatchSlotBytes = uint64_t{64} << 20;

/// One more in-order queue of the batch's context, with kernel objects of its
/// own of the program's kernel and the compare kernel (two queues never set
/// arguments on one kernel object).
struct BatchStream {
  ClQueue& queue;
  const BuiltKernel& kernel;
  const BuiltKernel& compare;
};

/// What run_batch needs; the inputs passed check_inputs and exceeded_limit.
struct BatchRequest {
  const BuiltKernel& kernel;
  const BuiltKernel& compare;
  const KernelInterface& iface;
  const BufferSet& inputs;
  const Grid& grid;
  BatchOptions options;
  /// Longest wait per run; a submission of n runs waits n times as long.
  std::chrono::milliseconds fence_timeout{10'000};
  uint64_t slot_budget_bytes = kBatchSlotBytes;
  /// Test only: after this run, word 0 of its first read_write buffer is
  /// overwritten on the device, as a nondeterministic program might.
  std::optional<uint32_t> perturbed_run;
  /// Queues beside the caller's that the runs spread over, each run with
  /// its own copy of the outputs, so that a GPU may run them side by side;
  /// empty: every run in the caller's queue, one after another.
  std::vector<BatchStream> streams;
};

/// Runs the batch with buffers from `pool`; when a run's packed outputs pass
/// the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE, as one run_dispatch per run.
/// Leaves timing to the caller. On Status::Timeout the queue has been
/// abandoned, as in run_dispatch.
BatchOutcome run_batch(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                       const std::string& device_name, const BatchRequest& request);

}  // namespace vyre::opencl
