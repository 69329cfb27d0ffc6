// Many runs of one dispatch in few submissions: inputs uploaded once and kept
// resident, every run's outputs initialised by device copies from a pristine
// copy, every run compared with run 0 on the device. Design: DESIGN.md
// ("Batched runs").
#pragma once

#include <chrono>
#include <optional>

#include "backends/backend.h"
#include "backends/vulkan/device_buffers.h"
#include "backends/vulkan/pipeline_cache.h"

namespace vyre::vulkan {

/// Bytes of run outputs a batch holds at once on a device with memory of its
/// own; a batch whose runs need more spreads them over more submissions.
inline constexpr VkDeviceSize kDeviceBatchSlotBytes = VkDeviceSize{64} << 20;
/// The same on a device that uses host memory in place (lavapipe): small
/// enough to stay in the CPU's caches, measured: 100 runs of 4 MiB outputs
/// cost 11 ms a run with 16 MiB of slots, as one dispatch does, and 17 ms
/// with 128 MiB.
inline constexpr VkDeviceSize kHostBatchSlotBytes = VkDeviceSize{16} << 20;

/// What run_batch needs; the inputs passed check_inputs and exceeded_limit.
struct BatchRequest {
  const Pipeline& pipeline;
  /// The compare shader's pipeline (compare_shader.h).
  const Pipeline& compare;
  const ShaderInterface& iface;
  const BufferSet& inputs;
  const Grid& grid;
  BatchOptions options;
  /// Device-local buffers reached through a staging copy (see DispatchRequest).
  bool staged = false;
  /// Longest wait per run; a submission of n runs waits n times as long.
  std::chrono::milliseconds fence_timeout{10'000};
  VkDeviceSize slot_budget_bytes = kDeviceBatchSlotBytes;
  /// Test only: after this run, word 0 of its first read_write buffer is
  /// overwritten on the device, as a nondeterministic program might.
  std::optional<uint32_t> perturbed_run;
};

/// Runs the batch with buffers from `pool` (of `device`). Leaves timing to the
/// caller. On Status::Timeout the device has been abandoned, as in run_dispatch.
BatchOutcome run_batch(VulkanDevice& device, BufferPool& pool, const BatchRequest& request);

}  // namespace vyre::vulkan
