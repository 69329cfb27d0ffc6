// The queues a batch spreads its runs over (batch_run.h): the caller's
// queue first, then its streams, each an *area* with its own kernel objects
// and its own packed buffer of outputs; how they are joined before the host
// reads, and what their kernels' first run may take.
#pragma once

#include <chrono>
#include <span>
#include <vector>

#include "backends/opencl/opencl_device.h"
#include "backends/opencl/program_builder.h"

namespace vyre::opencl {

/// Where runs run: a queue, its kernel objects, and one packed buffer of
/// outputs, `work`, that the queue's runs take turns in.
struct Area {
  ClQueue* queue = nullptr;
  const BuiltKernel* kernel = nullptr;
  const BuiltKernel* compare = nullptr;
  cl_mem work = nullptr;
  /// The sub-buffers of `work` the kernel binds: its outputs, then its
  /// control word.
  std::vector<cl_mem> subs;
};

/// Makes the first area's queue wait for every other area's work enqueued
/// so far (a marker in each, a barrier in the first); `event`, when not
/// null, gets the barrier's event. The first OpenCL error, or CL_SUCCESS.
cl_int join_areas(const OpenClApi& api, std::span<const Area> areas, cl_event* event);

/// The most any area's kernels may add to a first submission's wait
/// (ClQueue::first_run_allowance).
std::chrono::milliseconds first_run_allowance(std::span<const Area> areas,
                                              std::chrono::milliseconds fence);

/// Records that every area's kernels ran to the end.
void mark_ran(std::span<const Area> areas);

}  // namespace vyre::opencl
