// What a lowered program expects from the host: which buffers sit at which
// Vulkan binding, what the push constants hold and what the shader needs of the
// device. Shared by the GLSL emitter (which declares it) and the runtime (which
// binds it), so the two cannot disagree.
#pragma once

#include <cstdint>

#include "backends/clike/entry_interface.h"

namespace vyre::vulkan {

/// One non-workgroup buffer as the shader sees it.
using BoundBuffer = clike::BoundBuffer;

/// Bytes the host allocates for one control buffer: its two words, padded
/// like any small buffer.
inline constexpr uint64_t kControlBufferBytes = 16;

/// The host-facing layout of one lowered program (clike::EntryInterface) as
/// Vulkan binds it. Bound buffers take dense Vulkan bindings 0..n-1. Push
/// constants hold one u32 per bound buffer, its element count (host bytes /
/// element size), because Vulkan cannot bind a zero-sized buffer and shaders
/// must not rely on robustness features or .length() for bounds checks. The
/// control buffer, at binding n, has two words the shader sets to 1: word 0
/// when an invocation runs out of its loop iteration budget, word 1 when a
/// loop ended before its bound without a Return (a driver cutting loops
/// short, as lavapipe does).
struct ShaderInterface : clike::EntryInterface {
  /// Bytes of push constants: one u32 per bound buffer.
  uint32_t push_constant_bytes() const { return static_cast<uint32_t>(buffers.size() * 4); }
  /// Vulkan binding of the control buffer.
  uint32_t control_binding() const { return static_cast<uint32_t>(buffers.size()); }
};

/// The interface of `program` (clike::entry_interface_of).
inline ShaderInterface shader_interface_of(const Program& program, uint32_t loop_iteration_budget) {
  return {clike::entry_interface_of(program, loop_iteration_budget)};
}

}  // namespace vyre::vulkan
