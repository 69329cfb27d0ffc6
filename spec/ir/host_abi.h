// The host side of a dispatch (pinned spec section 1): one little-endian byte
// vector per non-workgroup buffer, and an explicit grid of workgroups.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vyre {

/// Raw little-endian contents of one buffer.
using ByteBuffer = std::vector<uint8_t>;

/// Buffer contents by buffer name. As input: every non-workgroup buffer,
/// ReadWrite ones with their initial contents. As output: the ReadWrite buffers.
using BufferSet = std::map<std::string, ByteBuffer>;

/// Workgroups dispatched on x, y, z. Never inferred from buffer sizes.
struct Grid {
  std::array<uint32_t, 3> workgroups = {1, 1, 1};
  bool operator==(const Grid&) const = default;
};

/// x * y * z of a workgroup size (its invocations) or a grid (its
/// workgroups); nullopt past 2^64 - 1.
std::optional<uint64_t> axis_product(const std::array<uint32_t, 3>& axes);

/// Invocations one dispatch runs: `size` x the grid's workgroups on every
/// axis; nullopt past 2^64 - 1.
std::optional<uint64_t> dispatch_invocations(const std::array<uint32_t, 3>& size, const Grid& grid);

}  // namespace vyre
