// What a lowered OpenCL kernel expects from the host: its arguments in order.
// Shared by the emitter (which declares them) and the runtime (which sets
// them), so the two cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/clike/entry_interface.h"

namespace vyre::opencl {

/// One non-workgroup buffer as the kernel sees it.
using KernelBuffer = clike::BoundBuffer;

/// The host-facing layout of one lowered kernel (clike::EntryInterface) as
/// its arguments. Arguments: one pointer per bound buffer, then one `uint`
/// element count per bound buffer in the same order, then, when the program
/// has loops, a control buffer of one word the kernel sets to 1 when an
/// invocation runs out of its loop iteration budget.
struct KernelInterface : clike::EntryInterface {
  /// Argument index of buffer i's pointer.
  uint32_t pointer_arg(size_t i) const { return static_cast<uint32_t>(i); }
  /// Argument index of buffer i's element count.
  uint32_t count_arg(size_t i) const { return static_cast<uint32_t>(buffers.size() + i); }
  /// Argument index of the control buffer.
  uint32_t control_arg() const { return static_cast<uint32_t>(2 * buffers.size()); }
};

/// The interface of `program` (clike::entry_interface_of).
inline KernelInterface kernel_interface_of(const Program& program, uint32_t loop_iteration_budget) {
  return {clike::entry_interface_of(program, loop_iteration_budget)};
}

}  // namespace vyre::opencl
