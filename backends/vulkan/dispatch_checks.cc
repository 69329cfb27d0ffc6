// Host-ABI and device-limit checks of one dispatch.
#include "backends/vulkan/dispatch_checks.h"

#include <algorithm>
#include <cctype>

namespace vyre::vulkan {

std::optional<std::string> exceeded_program_limit(const ShaderInterface& iface,
                                                  const DeviceLimits& limits) {
  for (size_t axis = 0; axis < 3; ++axis) {
    if (iface.workgroup_size[axis] > limits.max_workgroup_size[axis]) {
      return clike::exceeds("workgroup size on " + std::string(clike::axis_name(axis)),
                            iface.workgroup_size[axis], "maxComputeWorkGroupSize",
                            limits.max_workgroup_size[axis], limits.device_name);
    }
  }
  if (iface.workgroup_invocations() > limits.max_workgroup_invocations) {
    return clike::exceeds("invocations per workgroup", iface.workgroup_invocations(),
                          "maxComputeWorkGroupInvocations", limits.max_workgroup_invocations,
                          limits.device_name);
  }
  if (iface.workgroup_memory_bytes > limits.max_shared_memory) {
    return clike::exceeds("workgroup memory in bytes", iface.workgroup_memory_bytes,
                          "maxComputeSharedMemorySize", limits.max_shared_memory,
                          limits.device_name);
  }
  if (iface.push_constant_bytes() > limits.max_push_constants) {
    return clike::exceeds("push constant bytes (one u32 element count per bound buffer)",
                          iface.push_constant_bytes(), "maxPushConstantsSize",
                          limits.max_push_constants, limits.device_name);
  }
  uint64_t storage = iface.has_control_buffer ? 1 : 0;
  uint64_t uniform = 0;
  for (const BoundBuffer& b : iface.buffers)
    ++(b.access == BufferAccess::Uniform ? uniform : storage);
  if (storage > limits.max_storage_buffers_per_stage) {
    return clike::exceeds("storage buffers", storage, "maxPerStageDescriptorStorageBuffers",
                          limits.max_storage_buffers_per_stage, limits.device_name);
  }
  if (uniform > limits.max_uniform_buffers_per_stage) {
    return clike::exceeds("uniform buffers", uniform, "maxPerStageDescriptorUniformBuffers",
                          limits.max_uniform_buffers_per_stage, limits.device_name);
  }
  return std::nullopt;
}

std::optional<std::string> exceeded_limit(const ShaderInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits) {
  if (std::optional<std::string> program = exceeded_program_limit(iface, limits)) return program;
  // A device may take more workgroups (the H100 takes 2^31 - 1 on x), but
  // vyre's invocation ids are u32: past 2^32 - 1 invocations they would wrap.
  const auto& count = limits.max_workgroup_count;
  if (auto axis = clike::exceeded_axis_limit(iface.workgroup_size, grid,
                                             {{clike::AxisLimit::Workgroups,
                                               "grid of workgroups",
                                               "maxComputeWorkGroupCount",
                                               {count[0], count[1], count[2]}}},
                                             limits.device_name)) {
    return axis;
  }
  for (const BoundBuffer& b : iface.buffers) {
    const auto it = inputs.find(b.name);
    const uint64_t bytes = it == inputs.end() ? 0 : it->second.size();
    const bool is_uniform = b.access == BufferAccess::Uniform;
    const uint64_t range =
        is_uniform ? limits.max_uniform_buffer_range : limits.max_storage_buffer_range;
    if (bytes > range) {
      return clike::exceeds("buffer `" + b.name + "` in bytes", bytes,
                            is_uniform ? "maxUniformBufferRange" : "maxStorageBufferRange", range,
                            limits.device_name);
    }
  }
  return std::nullopt;
}

uint64_t descriptor_range(uint64_t host_bytes, uint64_t max_range) {
  return std::min(device_buffer_bytes(host_bytes), max_range);
}

std::string loop_ended_early_message(std::string_view device_name) {
  std::string message = std::string(kLoopEndedEarly) + " on " + std::string(device_name) +
                        ": an invocation left a loop with its counter below the loop's `to`, "
                        "although only `to` or a Return can end a vyre loop, so the device did "
                        "not run the program as written and its output is withheld";
  std::string lower(device_name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.find("llvmpipe") != std::string::npos) {
    message +=
        ". Known cause on llvmpipe (lavapipe): each shader invocation batch (8 invocations run as "
        "one SIMD batch) has a single budget of 65535 loop iterations shared by all its loops; "
        "once it is spent, every later loop exits after one iteration. Run the program on "
        "another device, or give each invocation fewer loop iterations in all";
  }
  return message;
}

}  // namespace vyre::vulkan
