// What a lowered CUDA kernel expects from the host: its parameters in order,
// shared by the lowering (which declares them) and the runtime (which passes
// them to cuLaunchKernel), so the two cannot disagree. The buffers, their
// order and the control buffer are clike's EntryInterface, as for OpenCL:
// a pointer per bound buffer, then a u32 element count per bound buffer,
// then the control buffer when the program loops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/clike/entry_interface.h"
#include "backends/clike/lowering_refusal.h"

namespace vyre::cuda {

/// The kernel every lowered program defines, as `extern "C" __global__`.
inline constexpr const char* kKernelName = "vyre_main";

/// One non-workgroup buffer as the kernel sees it.
using KernelBuffer = clike::BoundBuffer;

/// The host-facing layout of one lowered kernel (clike::EntryInterface) as
/// its parameters.
struct KernelInterface : clike::EntryInterface {
  /// Parameters in order: pointers, counts, then the control buffer.
  size_t parameter_count() const { return 2 * buffers.size() + (has_control_buffer ? 1 : 0); }
};

/// The interface of `program` (clike::entry_interface_of).
inline KernelInterface kernel_interface_of(const Program& program, uint32_t loop_iteration_budget) {
  return {clike::entry_interface_of(program, loop_iteration_budget)};
}

/// A program lowered for CUDA: the kernel source (CUDA C++ for NVRTC, one
/// kernel named kKernelName) and its parameters.
using LoweredKernel = clike::LoweredSource<KernelInterface>;

}  // namespace vyre::cuda
