// What every C-like backend's dispatch checks share (vulkan, opencl and cuda
// dispatch_checks): the bytes of a device buffer, the words of a limit's
// message, the u32 invocation ids and the loop budget's message. Each
// backend keeps its own device limits and the names its API gives them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "spec/ir/host_abi.h"

namespace vyre::clike {

/// No GPU API makes an empty buffer: an empty input gets this many bytes
/// (and every buffer an address of its own).
inline constexpr uint64_t kMinBufferBytes = 16;

/// Bytes of the device buffer made for a host buffer of `host_bytes`: rounded
/// up to whole u32 words, at least kMinBufferBytes.
uint64_t device_buffer_bytes(uint64_t host_bytes);

/// "x", "y" or "z" for axis 0, 1 or 2.
std::string_view axis_name(size_t axis);

/// "<what> <needed> exceeds <limit> = <value> of <device>": a device limit a
/// dispatch or program passes, named as the API names it.
std::string exceeds(std::string_view what, uint64_t needed, std::string_view limit, uint64_t value,
                    std::string_view device_name);

/// A device limit per axis of a dispatch: on the workgroup's size or on the
/// grid's count of workgroups.
struct AxisLimit {
  enum Of : uint8_t { WorkgroupSize, Workgroups } of;
  std::string_view what;  ///< "workgroup size", "grid of workgroups", ...
  std::string_view name;  ///< The API's name for the limit.
  std::array<uint64_t, 3> values;
};

/// The first per-axis limit this dispatch passes, axis by axis (x, y, z),
/// on each axis `limits` in order, then the u32 invocation ids
/// (u32_invocations_exceeded); nullopt when every axis fits.
std::optional<std::string> exceeded_axis_limit(const std::array<uint32_t, 3>& workgroup_size,
                                               const Grid& grid,
                                               std::initializer_list<AxisLimit> limits,
                                               std::string_view device_name);

/// Why `workgroups` workgroups of `workgroup_size` on `axis` cannot run: past
/// 2^32 - 1 invocations vyre's u32 invocation ids would wrap, whatever the
/// device takes; nullopt when they fit.
std::optional<std::string> u32_invocations_exceeded(size_t axis, uint32_t workgroups,
                                                    uint32_t workgroup_size);

/// Why a dispatch (Status::Timeout) returns no output after an invocation
/// used up its loop iteration budget of `budget` on backend `api` ("Vulkan",
/// "OpenCL", "CUDA"), and what the user can do.
std::string loop_budget_message(std::string_view api, uint32_t budget);

}  // namespace vyre::clike
