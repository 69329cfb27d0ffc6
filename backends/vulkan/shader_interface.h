// What a lowered program expects from the host: which buffers sit at which
// Vulkan binding, what the push constants hold and what the shader needs of the
// device. Shared by the GLSL emitter (which declares it) and the runtime (which
// binds it), so the two cannot disagree.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/program.h"

namespace vyre::vulkan {

/// One non-workgroup buffer as the shader sees it.
struct BoundBuffer {
  std::string name;  ///< The program's buffer name (host ABI key).
  BufferAccess access = BufferAccess::ReadOnly;
  DataType element = DataType::U32;
  uint32_t declared_count = 0;  ///< The program's count (0 = sized by the host).
};

/// The host-facing layout of one lowered program.
///
/// Bound buffers take dense Vulkan bindings 0..n-1 in the order of the
/// program's binding numbers; the program's numbers only order them, so any
/// u32 binding works. Push constants hold one u32 per bound buffer, its element
/// count (host bytes / element size), because Vulkan cannot bind a zero-sized
/// buffer and shaders must not rely on robustness features or .length() for
/// bounds checks. When the program has loops, binding n is a control buffer
/// of two words the shader sets to 1: word 0 when an invocation runs out of
/// its loop iteration budget, word 1 when a loop ended before its bound
/// without a Return (a driver cutting loops short, as lavapipe does).
/// Bytes the host allocates for one control buffer: its two words, padded
/// like any small buffer.
inline constexpr uint64_t kControlBufferBytes = 16;

struct ShaderInterface {
  std::vector<BoundBuffer> buffers;
  bool has_control_buffer = false;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  /// Bytes of workgroup (shared) memory the shader declares.
  uint64_t workgroup_memory_bytes = 0;
  /// Loop iterations per invocation before it stops (0 = no limit).
  uint32_t loop_iteration_budget = 0;

  /// Bytes of push constants: one u32 per bound buffer.
  uint32_t push_constant_bytes() const { return static_cast<uint32_t>(buffers.size() * 4); }
  /// Invocations per workgroup, saturating at UINT64_MAX.
  uint64_t workgroup_invocations() const;
  /// Vulkan binding of the control buffer.
  uint32_t control_binding() const { return static_cast<uint32_t>(buffers.size()); }
};

/// The interface of `program`: bound buffers ordered by binding number (name
/// breaks ties), workgroup memory summed. No validation beyond that.
ShaderInterface shader_interface_of(const Program& program, uint32_t loop_iteration_budget);

}  // namespace vyre::vulkan
