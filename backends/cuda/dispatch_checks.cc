// Host-ABI and device-limit checks of one dispatch.
#include "backends/cuda/dispatch_checks.h"

namespace vyre::cuda {

namespace {

/// A parameter's bytes: a device pointer, a u32 count.
constexpr uint64_t kPointerBytes = 8;
constexpr uint64_t kCountBytes = 4;

}  // namespace

std::optional<std::string> exceeded_limit(const KernelInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits) {
  if (auto axis =
          clike::exceeded_axis_limit(iface.workgroup_size, grid,
                                     {{clike::AxisLimit::WorkgroupSize, "workgroup size",
                                       "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM", limits.max_block_dim},
                                      {clike::AxisLimit::Workgroups, "workgroups",
                                       "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM", limits.max_grid_dim}},
                                     limits.device_name)) {
    return axis;
  }
  if (iface.workgroup_invocations() > limits.max_threads_per_block) {
    return clike::exceeds("invocations per workgroup", iface.workgroup_invocations(),
                          "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", limits.max_threads_per_block,
                          limits.device_name);
  }
  if (iface.workgroup_memory_bytes > limits.max_shared_memory_per_block) {
    return clike::exceeds("workgroup memory in bytes", iface.workgroup_memory_bytes,
                          "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK",
                          limits.max_shared_memory_per_block, limits.device_name);
  }
  uint64_t total = 0;
  for (const KernelBuffer& b : iface.buffers) {
    const auto it = inputs.find(b.name);
    const uint64_t bytes = device_buffer_bytes(it == inputs.end() ? 0 : it->second.size());
    total += bytes;
    if (bytes > limits.total_memory) {
      return clike::exceeds("buffer `" + b.name + "` in bytes", bytes,
                            "the device memory (cuDeviceTotalMem)", limits.total_memory,
                            limits.device_name);
    }
  }
  if (total > limits.total_memory) {
    return clike::exceeds("all buffers together in bytes", total,
                          "the device memory (cuDeviceTotalMem)", limits.total_memory,
                          limits.device_name);
  }
  const uint64_t parameter_bytes = iface.buffers.size() * (kPointerBytes + kCountBytes) +
                                   (iface.has_control_buffer ? kPointerBytes : 0);
  if (parameter_bytes > kMaxKernelParameterBytes) {
    return "kernel parameter bytes (a pointer and a u32 count per buffer) " +
           std::to_string(parameter_bytes) + " exceed the " +
           std::to_string(kMaxKernelParameterBytes) + " a CUDA kernel may take";
  }
  return std::nullopt;
}

std::optional<std::string> exceeded_kernel_limit(const KernelInterface& iface,
                                                 uint64_t kernel_max_threads,
                                                 uint64_t kernel_shared_bytes,
                                                 const DeviceLimits& limits) {
  if (iface.workgroup_invocations() > kernel_max_threads) {
    return clike::exceeds("invocations per workgroup", iface.workgroup_invocations(),
                          "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK of this kernel",
                          kernel_max_threads, limits.device_name);
  }
  if (kernel_shared_bytes > limits.max_shared_memory_per_block) {
    return clike::exceeds("the kernel's static shared memory in bytes", kernel_shared_bytes,
                          "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK",
                          limits.max_shared_memory_per_block, limits.device_name);
  }
  return std::nullopt;
}

}  // namespace vyre::cuda
