// Host-ABI and device-limit checks of one dispatch.
#include "backends/opencl/dispatch_checks.h"

#include <algorithm>

namespace vyre::opencl {
namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};
constexpr uint64_t kMaxU32 = 0xFFFFFFFF;
/// OpenCL cannot create an empty buffer; an empty input gets this many bytes.
constexpr uint64_t kMinBufferBytes = 16;

std::string exceeds(const std::string& what, uint64_t needed, const char* limit, uint64_t value,
                    const DeviceLimits& limits) {
  return what + " " + std::to_string(needed) + " exceeds " + limit + " = " + std::to_string(value) +
         " of " + limits.device_name;
}

}  // namespace

std::optional<std::string> exceeded_limit(const KernelInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits) {
  for (size_t axis = 0; axis < 3; ++axis) {
    const std::string axis_name = std::string(" on ") + kAxes[axis];
    if (iface.workgroup_size[axis] > limits.max_work_item_sizes[axis]) {
      return exceeds("workgroup size" + axis_name, iface.workgroup_size[axis],
                     "CL_DEVICE_MAX_WORK_ITEM_SIZES", limits.max_work_item_sizes[axis], limits);
    }
    const uint64_t invocations = uint64_t{grid.workgroups[axis]} * iface.workgroup_size[axis];
    if (invocations > kMaxU32) {
      return "invocations" + axis_name + " " + std::to_string(invocations) + " (" +
             std::to_string(grid.workgroups[axis]) + " workgroups of " +
             std::to_string(iface.workgroup_size[axis]) + ") exceeds " + std::to_string(kMaxU32) +
             ", the most that u32 invocation ids can number";
    }
  }
  if (iface.workgroup_invocations() > limits.max_work_group_size) {
    return exceeds("invocations per workgroup", iface.workgroup_invocations(),
                   "CL_DEVICE_MAX_WORK_GROUP_SIZE", limits.max_work_group_size, limits);
  }
  if (iface.workgroup_memory_bytes > limits.local_mem_size) {
    return exceeds("workgroup memory in bytes", iface.workgroup_memory_bytes,
                   "CL_DEVICE_LOCAL_MEM_SIZE", limits.local_mem_size, limits);
  }
  uint32_t uniform = 0;
  for (const KernelBuffer& b : iface.buffers) {
    const bool is_uniform = b.access == BufferAccess::Uniform;
    uniform += is_uniform ? 1 : 0;
    const auto it = inputs.find(b.name);
    const uint64_t bytes = device_buffer_bytes(it == inputs.end() ? 0 : it->second.size());
    const uint64_t range = is_uniform ? limits.max_constant_buffer_size : limits.max_mem_alloc_size;
    if (bytes > range) {
      return exceeds(
          "buffer `" + b.name + "` in bytes", bytes,
          is_uniform ? "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE" : "CL_DEVICE_MAX_MEM_ALLOC_SIZE", range,
          limits);
    }
  }
  if (uniform > limits.max_constant_args) {
    return exceeds("uniform (__constant) buffers", uniform, "CL_DEVICE_MAX_CONSTANT_ARGS",
                   limits.max_constant_args, limits);
  }
  const uint64_t pointers = iface.buffers.size() + (iface.has_control_buffer ? 1 : 0);
  const uint64_t parameter_bytes = pointers * (limits.address_bits / 8) + iface.buffers.size() * 4;
  if (parameter_bytes > limits.max_parameter_size) {
    return exceeds("kernel parameter bytes (a pointer and a uint count per buffer)",
                   parameter_bytes, "CL_DEVICE_MAX_PARAMETER_SIZE", limits.max_parameter_size,
                   limits);
  }
  return std::nullopt;
}

uint64_t device_buffer_bytes(uint64_t host_bytes) {
  return std::max(kMinBufferBytes, (host_bytes + 3) / 4 * 4);
}

std::string loop_budget_message(uint32_t budget) {
  return "an invocation ran more than " + std::to_string(budget) +
         " loop iterations in all its loops together and was stopped, because the OpenCL "
         "backend stops runaway loops before they can hang the device; no output is returned. "
         "If the program is meant to loop that long, give each invocation less work (more "
         "invocations or dispatches, shorter loops); a host embedding the backend can raise "
         "BackendOptions::loop_iteration_budget";
}

}  // namespace vyre::opencl
