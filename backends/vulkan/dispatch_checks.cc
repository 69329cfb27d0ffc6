// Host-ABI and device-limit checks of one dispatch.
#include "backends/vulkan/dispatch_checks.h"

namespace vyre::vulkan {
namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};

std::string exceeds(const std::string& what, uint64_t needed, const char* limit, uint64_t value,
                    const DeviceLimits& limits) {
  return what + " " + std::to_string(needed) + " exceeds " + limit + " = " + std::to_string(value) +
         " of " + limits.device_name;
}

}  // namespace

Result<Ok> check_inputs(const ShaderInterface& iface, const BufferSet& inputs, const Grid& grid) {
  for (size_t axis = 0; axis < 3; ++axis) {
    if (grid.workgroups[axis] == 0) {
      return Error{std::string("the grid has 0 workgroups on ") + kAxes[axis] +
                   "; every axis needs at least 1"};
    }
  }
  for (const auto& [name, bytes] : inputs) {
    bool known = false;
    for (const BoundBuffer& b : iface.buffers) known = known || b.name == name;
    if (!known) {
      return Error{"input `" + name + "` names no buffer of the program that takes a binding"};
    }
  }
  for (const BoundBuffer& b : iface.buffers) {
    const auto it = inputs.find(b.name);
    if (it == inputs.end()) {
      return Error{"no input bytes for buffer `" + b.name + "`; every non-workgroup buffer, " +
                   "read_write ones included, needs its initial bytes"};
    }
    const uint64_t expected = uint64_t{b.declared_count} * element_size(b.element);
    if (b.declared_count != 0 && it->second.size() != expected) {
      return Error{"buffer `" + b.name + "` is declared with " + std::to_string(b.declared_count) +
                   " elements, so it needs exactly " + std::to_string(expected) + " bytes; got " +
                   std::to_string(it->second.size())};
    }
    if (b.access == BufferAccess::Uniform && it->second.size() > 65536) {
      return Error{"uniform buffer `" + b.name + "` has " + std::to_string(it->second.size()) +
                   " bytes; uniform buffers hold at most 65536"};
    }
  }
  return Ok{};
}

std::optional<std::string> exceeded_limit(const ShaderInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits) {
  for (size_t axis = 0; axis < 3; ++axis) {
    const std::string axis_name = std::string(" on ") + kAxes[axis];
    if (iface.workgroup_size[axis] > limits.max_workgroup_size[axis]) {
      return exceeds("workgroup size" + axis_name, iface.workgroup_size[axis],
                     "maxComputeWorkGroupSize", limits.max_workgroup_size[axis], limits);
    }
    if (grid.workgroups[axis] > limits.max_workgroup_count[axis]) {
      return exceeds("grid of workgroups" + axis_name, grid.workgroups[axis],
                     "maxComputeWorkGroupCount", limits.max_workgroup_count[axis], limits);
    }
  }
  if (iface.workgroup_invocations() > limits.max_workgroup_invocations) {
    return exceeds("invocations per workgroup", iface.workgroup_invocations(),
                   "maxComputeWorkGroupInvocations", limits.max_workgroup_invocations, limits);
  }
  if (iface.workgroup_memory_bytes > limits.max_shared_memory) {
    return exceeds("workgroup memory in bytes", iface.workgroup_memory_bytes,
                   "maxComputeSharedMemorySize", limits.max_shared_memory, limits);
  }
  if (iface.push_constant_bytes() > limits.max_push_constants) {
    return exceeds("push constant bytes (one u32 element count per bound buffer)",
                   iface.push_constant_bytes(), "maxPushConstantsSize", limits.max_push_constants,
                   limits);
  }
  uint32_t storage = iface.has_control_buffer ? 1 : 0;
  uint32_t uniform = 0;
  for (const BoundBuffer& b : iface.buffers) {
    ++(b.access == BufferAccess::Uniform ? uniform : storage);
    const auto it = inputs.find(b.name);
    const uint64_t bytes = it == inputs.end() ? 0 : it->second.size();
    const bool is_uniform = b.access == BufferAccess::Uniform;
    const uint64_t range =
        is_uniform ? limits.max_uniform_buffer_range : limits.max_storage_buffer_range;
    if (bytes > range) {
      return exceeds("buffer `" + b.name + "` in bytes", bytes,
                     is_uniform ? "maxUniformBufferRange" : "maxStorageBufferRange", range, limits);
    }
  }
  if (storage > limits.max_storage_buffers_per_stage) {
    return exceeds("storage buffers", storage, "maxPerStageDescriptorStorageBuffers",
                   limits.max_storage_buffers_per_stage, limits);
  }
  if (uniform > limits.max_uniform_buffers_per_stage) {
    return exceeds("uniform buffers", uniform, "maxPerStageDescriptorUniformBuffers",
                   limits.max_uniform_buffers_per_stage, limits);
  }
  return std::nullopt;
}

}  // namespace vyre::vulkan
