// What a lowered OpenCL kernel expects from the host: its arguments in order.
// Shared by the emitter (which declares them) and the runtime (which sets
// them), so the two cannot disagree.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/program.h"

namespace vyre::opencl {

/// One non-workgroup buffer as the kernel sees it.
struct KernelBuffer {
  std::string name;  ///< The program's buffer name (host ABI key).
  BufferAccess access = BufferAccess::ReadOnly;
  DataType element = DataType::U32;
  uint32_t declared_count = 0;  ///< The program's count (0 = sized by the host).
};

/// The host-facing layout of one lowered kernel.
///
/// Arguments: one pointer per bound buffer (ordered by the program's binding
/// numbers, name breaking ties), then one `uint` element count per bound
/// buffer in the same order, then, when the program has loops, a control
/// buffer of one word the kernel sets to 1 when an invocation runs out of its
/// loop iteration budget.
struct KernelInterface {
  std::vector<KernelBuffer> buffers;
  bool has_control_buffer = false;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  /// Bytes of workgroup (__local) memory the kernel declares.
  uint64_t workgroup_memory_bytes = 0;
  /// Loop iterations per invocation before it stops (0 = no limit).
  uint32_t loop_iteration_budget = 0;

  /// Invocations per workgroup, saturating at UINT64_MAX.
  uint64_t workgroup_invocations() const;
  /// Argument index of buffer i's pointer and of its element count.
  uint32_t pointer_arg(size_t i) const { return static_cast<uint32_t>(i); }
  uint32_t count_arg(size_t i) const { return static_cast<uint32_t>(buffers.size() + i); }
  /// Argument index of the control buffer.
  uint32_t control_arg() const { return static_cast<uint32_t>(2 * buffers.size()); }
};

/// The interface of `program`. No validation beyond what it needs.
KernelInterface kernel_interface_of(const Program& program, uint32_t loop_iteration_budget);

}  // namespace vyre::opencl
