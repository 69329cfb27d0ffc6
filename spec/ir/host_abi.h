// The host side of a dispatch (pinned spec section 1): one little-endian byte
// vector per non-workgroup buffer, and an explicit grid of workgroups.
#pragma once

#include <array>
#include <cstdint>
#include <map>
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

}  // namespace vyre
