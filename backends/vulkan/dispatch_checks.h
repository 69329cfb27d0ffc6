// Checks made before a dispatch touches the device, as pure functions over the
// shader interface, the inputs, the grid and the probed device limits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "backends/vulkan/shader_interface.h"
#include "spec/ir/host_abi.h"
#include "spec/support/result.h"

namespace vyre::vulkan {

/// The device limits a dispatch can run into.
struct DeviceLimits {
  std::string device_name;
  std::array<uint32_t, 3> max_workgroup_size = {0, 0, 0};
  uint32_t max_workgroup_invocations = 0;
  std::array<uint32_t, 3> max_workgroup_count = {0, 0, 0};
  uint64_t max_storage_buffer_range = 0;
  uint64_t max_uniform_buffer_range = 0;
  uint32_t max_shared_memory = 0;
  uint32_t max_push_constants = 0;
  uint32_t max_storage_buffers_per_stage = 0;
  uint32_t max_uniform_buffers_per_stage = 0;
};

/// The inputs and grid as the host ABI (S1) demands: every bound buffer given,
/// no unknown name, declared sizes matched, a grid of at least 1 per axis.
Result<Ok> check_inputs(const ShaderInterface& iface, const BufferSet& inputs, const Grid& grid);

/// The first device limit this dispatch exceeds, as a message naming the
/// limit, its value and what the program needs; nullopt when it fits.
std::optional<std::string> exceeded_limit(const ShaderInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits);

}  // namespace vyre::vulkan
