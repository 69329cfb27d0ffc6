// The dataflow engine's level loop (backends/level_loop.h) on an OpenCL
// queue with the state resident on the device: each group of levels is
// enqueued at once (a level is at most two enqueues) and waited for once,
// its `changed` words read back together. Design: DESIGN.md ("Level loops").
#pragma once

#include <chrono>
#include <string>

#include "backends/level_loop.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/kernel_cache.h"
#include "backends/opencl/kernel_interface.h"

namespace vyre::opencl {

/// Everything one level loop needs besides the queue.
struct LevelLoopRequest {
  const BuiltKernel& kernel;
  const KernelInterface& iface;
  const BufferSet& state;
  const Grid& grid;
  const LevelLoop& loop;
  /// Bounds each level: a wait for n levels waits n times this long.
  std::chrono::milliseconds timeout;
};

/// Whether run_level_loop can run `loop` on `iface` and `state`: its changed,
/// level, current and next buffers are distinct buffers of the kernel,
/// `changed`, `next` and every output read_write, the level word inside its
/// buffer, `current` and `next` of one length. Otherwise the default loop
/// (Backend::dispatch_levels) runs it.
bool level_loop_fits(const KernelInterface& iface, const BufferSet& state, const LevelLoop& loop);

/// Runs the loop with buffers from `pool`. Statuses as run_dispatch's
/// (Timeout past a wait's deadline or the loop budget, DeviceLost when a
/// kernel failed, NotSupported when the device lacks memory, Error else).
/// changed_words holds every level run, those run ahead of the first that
/// changed nothing included.
LevelLoopOutcome run_level_loop(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                                const std::string& device_name, const LevelLoopRequest& request);

}  // namespace vyre::opencl
