// What a lowered entry point expects from the host, whatever the language:
// its bound buffers in order, whether it has a control buffer, its workgroup.
// Each backend's interface (vulkan/shader_interface.h, opencl/kernel_interface.h)
// adds how its API binds these; the emitter declares them through its
// BufferAccessor, and the runtime binds them, so the two cannot disagree.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/program.h"

namespace vyre::clike {

/// One non-workgroup buffer as the entry point sees it.
struct BoundBuffer {
  std::string name;  ///< The program's buffer name (host ABI key).
  BufferAccess access = BufferAccess::ReadOnly;
  DataType element = DataType::U32;
  uint32_t declared_count = 0;  ///< The program's count (0 = sized by the host).
};

/// The host-facing layout of one lowered entry point. Bound buffers are
/// ordered by the program's binding numbers (name breaking ties); the numbers
/// only order them, so any u32 binding works. When the program has loops, a
/// control buffer follows, which the entry point sets when an invocation runs
/// out of its loop iteration budget.
struct EntryInterface {
  std::vector<BoundBuffer> buffers;
  bool has_control_buffer = false;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  /// Bytes of workgroup memory the entry point declares.
  uint64_t workgroup_memory_bytes = 0;
  /// Loop iterations per invocation before it stops (0 = no limit).
  uint32_t loop_iteration_budget = 0;

  /// Invocations per workgroup, saturating at UINT64_MAX.
  uint64_t workgroup_invocations() const;
};

/// The interface of `program`: bound buffers ordered, workgroup memory
/// summed. No validation beyond that.
EntryInterface entry_interface_of(const Program& program, uint32_t loop_iteration_budget);

}  // namespace vyre::clike
