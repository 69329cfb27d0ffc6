// Host-ABI and device-limit checks of one dispatch.
#include "backends/vulkan/dispatch_checks.h"

#include <algorithm>
#include <cctype>

namespace vyre::vulkan {
namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};
constexpr uint64_t kMaxU32 = 0xFFFFFFFF;
/// Vulkan cannot create an empty buffer; an empty input gets this many bytes.
constexpr uint64_t kMinBufferBytes = 16;

std::string exceeds(const std::string& what, uint64_t needed, const char* limit, uint64_t value,
                    const DeviceLimits& limits) {
  return what + " " + std::to_string(needed) + " exceeds " + limit + " = " + std::to_string(value) +
         " of " + limits.device_name;
}

}  // namespace

std::optional<std::string> exceeded_program_limit(const ShaderInterface& iface,
                                                  const DeviceLimits& limits) {
  for (size_t axis = 0; axis < 3; ++axis) {
    if (iface.workgroup_size[axis] > limits.max_workgroup_size[axis]) {
      return exceeds(std::string("workgroup size on ") + kAxes[axis], iface.workgroup_size[axis],
                     "maxComputeWorkGroupSize", limits.max_workgroup_size[axis], limits);
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
  uint64_t storage = iface.has_control_buffer ? 1 : 0;
  uint64_t uniform = 0;
  for (const BoundBuffer& b : iface.buffers)
    ++(b.access == BufferAccess::Uniform ? uniform : storage);
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

std::optional<std::string> exceeded_limit(const ShaderInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits) {
  if (std::optional<std::string> program = exceeded_program_limit(iface, limits)) return program;
  for (size_t axis = 0; axis < 3; ++axis) {
    const std::string axis_name = std::string(" on ") + kAxes[axis];
    if (grid.workgroups[axis] > limits.max_workgroup_count[axis]) {
      return exceeds("grid of workgroups" + axis_name, grid.workgroups[axis],
                     "maxComputeWorkGroupCount", limits.max_workgroup_count[axis], limits);
    }
    // A device may take more (the H100 takes 2^31 - 1 workgroups on x), but
    // vyre's invocation ids are u32: past 2^32 - 1 invocations they would wrap.
    const uint64_t invocations = uint64_t{grid.workgroups[axis]} * iface.workgroup_size[axis];
    if (invocations > kMaxU32) {
      return "invocations" + axis_name + " " + std::to_string(invocations) + " (" +
             std::to_string(grid.workgroups[axis]) + " workgroups of " +
             std::to_string(iface.workgroup_size[axis]) + ") exceeds " + std::to_string(kMaxU32) +
             ", the most that u32 invocation ids can number";
    }
  }
  for (const BoundBuffer& b : iface.buffers) {
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
  return std::nullopt;
}

uint64_t bound_buffer_bytes(uint64_t host_bytes) {
  return std::max(kMinBufferBytes, (host_bytes + 3) / 4 * 4);
}

uint64_t descriptor_range(uint64_t host_bytes, uint64_t max_range) {
  return std::min(bound_buffer_bytes(host_bytes), max_range);
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

std::string loop_budget_message(uint32_t budget) {
  return "an invocation ran more than " + std::to_string(budget) +
         " loop iterations in all its loops together and was stopped, because the Vulkan "
         "backend stops runaway loops before they can hang the device; no output is returned. "
         "If the program is meant to loop that long, give each invocation less work (more "
         "invocations or dispatches, shorter loops); a host embedding the backend can raise "
         "BackendOptions::loop_iteration_budget";
}

}  // namespace vyre::vulkan
