// Checks made before a dispatch touches the device, as pure functions over the
// kernel interface, the inputs, the grid and the device's limits
// (cuDeviceGetAttribute).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "backends/clike/dispatch_limits.h"
#include "backends/cuda/kernel_interface.h"
#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::cuda {

/// Bytes of parameters a kernel launch may pass (the CUDA C++ Programming
/// Guide's limit for __global__ function parameters before CUDA 12.1).
inline constexpr uint64_t kMaxKernelParameterBytes = 4096;

/// Largest uniform buffer the host ABI allows (S1). CUDA passes a uniform
/// buffer as a plain pointer, so no device limit is lower.
inline constexpr uint64_t kMaxUniformBytes = 65536;

/// The device limits a dispatch can run into.
struct DeviceLimits {
  std::string device_name;
  uint64_t max_threads_per_block = 0;                 ///< CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
  std::array<uint64_t, 3> max_block_dim = {0, 0, 0};  ///< CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X/Y/Z
  std::array<uint64_t, 3> max_grid_dim = {0, 0, 0};   ///< CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X/Y/Z
  uint64_t max_shared_memory_per_block = 0;  ///< CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK
  uint64_t total_memory = 0;                 ///< cuDeviceTotalMem
};

/// The first device limit this dispatch exceeds, as a message naming the
/// limit, its value and what the program needs; nullopt when it fits. Besides
/// the device's limits, a grid whose invocation ids pass 2^32 - 1 on an axis
/// is refused (vyre's ids are u32), and so are parameters past
/// kMaxKernelParameterBytes.
std::optional<std::string> exceeded_limit(const KernelInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits);

/// The same for one loaded kernel: its own most threads per block
/// (CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, lowered by its register use) and
/// its static shared memory against the device's.
std::optional<std::string> exceeded_kernel_limit(const KernelInterface& iface,
                                                 uint64_t kernel_max_threads,
                                                 uint64_t kernel_shared_bytes,
                                                 const DeviceLimits& limits);

/// Bytes of the device buffer made for a host buffer (every buffer has an
/// address of its own).
using clike::device_buffer_bytes;

/// Why a dispatch (Status::Timeout) returns no output after an invocation
/// used up its loop iteration budget of `budget`, and what the user can do.
inline std::string loop_budget_message(uint32_t budget) {
  return clike::loop_budget_message("CUDA", budget);
}

}  // namespace vyre::cuda
