// One dispatch on a device: upload the inputs, run the pipeline, read back the
// read_write buffers, with a fence timeout on every submission.
#pragma once

#include <chrono>

#include <optional>

#include "backends/backend.h"
#include "backends/level_loop.h"
#include "backends/vulkan/device_buffers.h"
#include "backends/vulkan/pipeline_cache.h"

namespace vyre::vulkan {

/// What run_dispatch needs; the inputs passed check_inputs and exceeded_limit.
struct DispatchRequest {
  const Pipeline& pipeline;
  const ShaderInterface& iface;
  const BufferSet& inputs;
  const Grid& grid;
  /// Device-local buffers reached through a staging copy, instead of buffers
  /// the device uses in place.
  bool staged = false;
  std::chrono::milliseconds fence_timeout{10'000};
  /// Where the buffers the device uses in place live (not staged):
  /// HostVisible on shared memory; Staging (host memory the device reads and
  /// writes over the bus) for a small dispatch on a discrete GPU.
  MemoryPlace in_place = MemoryPlace::HostVisible;
  /// Measure the submission's device time with timestamps.
  bool timed = true;
};

/// Runs the request with buffers from `pool` (of `device`). On
/// Status::Timeout the device has been abandoned (its buffers stay allocated
/// for the hung work); on Status::DeviceLost it may be destroyed. setup_ms is
/// left to the caller.
DispatchOutcome run_dispatch(VulkanDevice& device, BufferPool& pool,
                             const DispatchRequest& request);

/// Runs `loop`'s levels of the request's program with the state on the
/// device, several levels a submission (DESIGN.md "Level loops"), from
/// `request.inputs`; each submission's wait is bounded by the fence timeout
/// times its levels. nullopt when the loop's buffers do not fit that shape:
/// the caller then runs Backend::dispatch_levels' default. On Status::Timeout
/// the device has been abandoned, as for run_dispatch.
std::optional<LevelLoopOutcome> run_level_loop(VulkanDevice& device, BufferPool& pool,
                                               const DispatchRequest& request,
                                               const LevelLoop& loop);

}  // namespace vyre::vulkan
