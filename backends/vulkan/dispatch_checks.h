// Checks made before a dispatch touches the device, as pure functions over the
// shader interface, the inputs, the grid and the probed device limits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "backends/clike/dispatch_limits.h"
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
  /// Alignment of a storage descriptor's offset (batched runs share buffers).
  uint64_t min_storage_buffer_offset_alignment = 256;
};

/// The first device limit the program itself exceeds, whatever its inputs and
/// grid (workgroup size and memory, push constants, descriptors per stage), as
/// exceeded_limit words it; nullopt when it fits. compile() checks it before
/// any GLSL is written, so a program with 60,000 buffers never reaches glslang.
std::optional<std::string> exceeded_program_limit(const ShaderInterface& iface,
                                                  const DeviceLimits& limits);

/// The first device limit this dispatch exceeds, as a message naming the
/// limit, its value and what the program needs; nullopt when it fits. Besides
/// the device's own limits, a grid whose invocation ids pass 2^32 - 1 on an
/// axis is refused, because vyre's ids are u32 and would wrap.
std::optional<std::string> exceeded_limit(const ShaderInterface& iface, const BufferSet& inputs,
                                          const Grid& grid, const DeviceLimits& limits);

/// Bytes a dispatch binds for a host buffer (Vulkan has no empty buffer).
using clike::device_buffer_bytes;

/// Range of the descriptor of a host buffer of `host_bytes`: its device buffer bytes,
/// clamped to the device's `max_range`. Clamping drops at most the padding of
/// the last partial word, which no loaded or stored element reaches: a Bytes
/// buffer counts that word in BufLen but is never accessed (V013), and
/// exceeded_limit refuses a buffer whose host bytes pass `max_range`.
uint64_t descriptor_range(uint64_t host_bytes, uint64_t max_range);

/// Stable part of the message of a dispatch in which a loop ended before its
/// upper bound; tests and known-limit lists match it.
inline constexpr std::string_view kLoopEndedEarly = "a loop ended before its upper bound";

/// Why a dispatch (Status::NotSupported) returns no output after the device
/// ended a loop early, with the known cause when the device is llvmpipe.
std::string loop_ended_early_message(std::string_view device_name);

/// Why a dispatch (Status::Timeout) returns no output after an invocation
/// used up its loop iteration budget of `budget`, and what the user can do.
inline std::string loop_budget_message(uint32_t budget) {
  return clike::loop_budget_message("Vulkan", budget);
}

}  // namespace vyre::vulkan
