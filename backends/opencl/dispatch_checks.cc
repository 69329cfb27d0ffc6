// Host-ABI and device-limit checks of one dispatch.
#include "backends/opencl/dispatch_checks.h"

namespace vyre::opencl {

std::optional<std::string> exceeded_limit(const KernelInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits) {
  if (auto axis = clike::exceeded_axis_limit(
          iface.workgroup_size, grid,
          {{clike::AxisLimit::WorkgroupSize, "workgroup size", "CL_DEVICE_MAX_WORK_ITEM_SIZES",
            limits.max_work_item_sizes}},
          limits.device_name)) {
    return axis;
  }
  if (iface.workgroup_invocations() > limits.max_work_group_size) {
    return clike::exceeds("invocations per workgroup", iface.workgroup_invocations(),
                          "CL_DEVICE_MAX_WORK_GROUP_SIZE", limits.max_work_group_size,
                          limits.device_name);
  }
  if (iface.workgroup_memory_bytes > limits.local_mem_size) {
    return clike::exceeds("workgroup memory in bytes", iface.workgroup_memory_bytes,
                          "CL_DEVICE_LOCAL_MEM_SIZE", limits.local_mem_size, limits.device_name);
  }
  uint32_t uniform = 0;
  for (const KernelBuffer& b : iface.buffers) {
    const bool is_uniform = b.access == BufferAccess::Uniform;
    uniform += is_uniform ? 1 : 0;
    const auto it = inputs.find(b.name);
    const uint64_t bytes = device_buffer_bytes(it == inputs.end() ? 0 : it->second.size());
    const uint64_t range = is_uniform ? limits.max_constant_buffer_size : limits.max_mem_alloc_size;
    if (bytes > range) {
      return clike::exceeds(
          "buffer `" + b.name + "` in bytes", bytes,
          is_uniform ? "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE" : "CL_DEVICE_MAX_MEM_ALLOC_SIZE", range,
          limits.device_name);
    }
  }
  if (uniform > limits.max_constant_args) {
    return clike::exceeds("uniform (__constant) buffers", uniform, "CL_DEVICE_MAX_CONSTANT_ARGS",
                          limits.max_constant_args, limits.device_name);
  }
  const uint64_t pointers = iface.buffers.size() + (iface.has_control_buffer ? 1 : 0);
  const uint64_t parameter_bytes = pointers * (limits.address_bits / 8) + iface.buffers.size() * 4;
  if (parameter_bytes > limits.max_parameter_size) {
    return clike::exceeds("kernel parameter bytes (a pointer and a uint count per buffer)",
                          parameter_bytes, "CL_DEVICE_MAX_PARAMETER_SIZE",
                          limits.max_parameter_size, limits.device_name);
  }
  return std::nullopt;
}

}  // namespace vyre::opencl
