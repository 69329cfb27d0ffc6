// Host-ABI and device-limit checks of one dispatch.
#include "backends/cuda/dispatch_checks.h"

#include <algorithm>

namespace vyre::cuda {
namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};
constexpr uint64_t kMaxU32 = 0xFFFFFFFF;
constexpr uint64_t kMinBufferBytes = 16;
/// A parameter's bytes: a device pointer, a u32 count.
constexpr uint64_t kPointerBytes = 8;
constexpr uint64_t kCountBytes = 4;

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
    if (iface.workgroup_size[axis] > limits.max_block_dim[axis]) {
      return exceeds("workgroup size" + axis_name, iface.workgroup_size[axis],
                     "CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM", limits.max_block_dim[axis], limits);
    }
    if (grid.workgroups[axis] > limits.max_grid_dim[axis]) {
      return exceeds("workgroups" + axis_name, grid.workgroups[axis],
                     "CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM", limits.max_grid_dim[axis], limits);
    }
    const uint64_t invocations = uint64_t{grid.workgroups[axis]} * iface.workgroup_size[axis];
    if (invocations > kMaxU32) {
      return "invocations" + axis_name + " " + std::to_string(invocations) + " (" +
             std::to_string(grid.workgroups[axis]) + " workgroups of " +
             std::to_string(iface.workgroup_size[axis]) + ") exceeds " + std::to_string(kMaxU32) +
             ", the most that u32 invocation ids can number";
    }
  }
  if (iface.workgroup_invocations() > limits.max_threads_per_block) {
    return exceeds("invocations per workgroup", iface.workgroup_invocations(),
                   "CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK", limits.max_threads_per_block,
                   limits);
  }
  if (iface.workgroup_memory_bytes > limits.max_shared_memory_per_block) {
    return exceeds("workgroup memory in bytes", iface.workgroup_memory_bytes,
                   "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK",
                   limits.max_shared_memory_per_block, limits);
  }
  uint64_t total = 0;
  for (const KernelBuffer& b : iface.buffers) {
    const auto it = inputs.find(b.name);
    const uint64_t bytes = device_buffer_bytes(it == inputs.end() ? 0 : it->second.size());
    total += bytes;
    if (bytes > limits.total_memory) {
      return exceeds("buffer `" + b.name + "` in bytes", bytes,
                     "the device memory (cuDeviceTotalMem)", limits.total_memory, limits);
    }
  }
  if (total > limits.total_memory) {
    return exceeds("all buffers together in bytes", total, "the device memory (cuDeviceTotalMem)",
                   limits.total_memory, limits);
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
    return exceeds("invocations per workgroup", iface.workgroup_invocations(),
                   "CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK of this kernel", kernel_max_threads,
                   limits);
  }
  if (kernel_shared_bytes > limits.max_shared_memory_per_block) {
    return exceeds("the kernel's static shared memory in bytes", kernel_shared_bytes,
                   "CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK",
                   limits.max_shared_memory_per_block, limits);
  }
  return std::nullopt;
}

uint64_t device_buffer_bytes(uint64_t host_bytes) {
  return std::max(kMinBufferBytes, (host_bytes + 3) / 4 * 4);
}

std::string loop_budget_message(uint32_t budget) {
  return "an invocation ran more than " + std::to_string(budget) +
         " loop iterations in all its loops together and was stopped, because the CUDA "
         "backend stops runaway loops before they can hang the device; no output is returned. "
         "If the program is meant to loop that long, give each invocation less work (more "
         "invocations or dispatches, shorter loops); a host embedding the backend can raise "
         "BackendOptions::loop_iteration_budget";
}

}  // namespace vyre::cuda
