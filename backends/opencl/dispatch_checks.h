// Checks made before a dispatch touches the device, as pure functions over the
// kernel interface, the inputs, the grid and the probed device limits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "backends/clike/dispatch_limits.h"
#include "backends/opencl/kernel_interface.h"
#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::opencl {

/// The device limits a dispatch can run into (clGetDeviceInfo).
struct DeviceLimits {
  std::string device_name;
  std::array<uint64_t, 3> max_work_item_sizes = {0, 0, 0};
  uint64_t max_work_group_size = 0;
  uint64_t local_mem_size = 0;
  uint64_t max_mem_alloc_size = 0;
  uint64_t max_constant_buffer_size = 0;
  uint32_t max_constant_args = 0;
  uint64_t max_parameter_size = 0;
  uint32_t address_bits = 64;
};

/// The first device limit this dispatch exceeds, as a message naming the
/// limit, its value and what the program needs; nullopt when it fits. Besides
/// the device's own limits, a grid whose invocation ids pass 2^32 - 1 on an
/// axis is refused, because vyre's ids are u32 and would wrap.
std::optional<std::string> exceeded_limit(const KernelInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits);

/// Bytes of the device buffer made for a host buffer (OpenCL has no empty buffer).
using clike::device_buffer_bytes;

/// Why a dispatch (Status::Timeout) returns no output after an invocation
/// used up its loop iteration budget of `budget`, and what the user can do.
inline std::string loop_budget_message(uint32_t budget) {
  return clike::loop_budget_message("OpenCL", budget);
}

}  // namespace vyre::opencl
