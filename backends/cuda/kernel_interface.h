// What a lowered CUDA kernel expects from the host: its parameters in order,
// shared by the lowering (which declares them) and the runtime (which passes
// them to cuLaunchKernel), so the two cannot disagree. The layout is the
// OpenCL backend's: a pointer per bound buffer, then a u32 element count per
// bound buffer, then the control buffer when the program loops.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/program.h"

namespace vyre::cuda {

/// The kernel every lowered program defines, as `extern "C" __global__`.
inline constexpr const char* kKernelName = "vyre_main";

/// One non-workgroup buffer as the kernel sees it.
struct KernelBuffer {
  std::string name;  ///< The program's buffer name (host ABI key).
  BufferAccess access = BufferAccess::ReadOnly;
  DataType element = DataType::U32;
  uint32_t declared_count = 0;  ///< The program's count (0 = sized by the host).
};

/// The host-facing layout of one lowered kernel. Bound buffers are ordered by
/// binding number, name breaking ties.
struct KernelInterface {
  std::vector<KernelBuffer> buffers;
  /// A one-word buffer, the last parameter, that an invocation sets to 1 when
  /// it runs out of its loop iteration budget.
  bool has_control_buffer = false;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  /// Bytes of workgroup (__shared__) memory the kernel declares.
  uint64_t workgroup_memory_bytes = 0;
  /// Loop iterations per invocation before it stops (0 = no limit).
  uint32_t loop_iteration_budget = 0;

  /// Invocations per workgroup, saturating at UINT64_MAX.
  uint64_t workgroup_invocations() const;
  /// Parameters in order: pointers, counts, then the control buffer.
  size_t parameter_count() const { return 2 * buffers.size() + (has_control_buffer ? 1 : 0); }
};

/// The interface of `program`. No validation beyond what it needs.
KernelInterface kernel_interface_of(const Program& program, uint32_t loop_iteration_budget);

/// A program lowered for CUDA: the kernel source and its parameters.
struct LoweredKernel {
  std::string source;  ///< CUDA C++ for NVRTC, one kernel named kKernelName.
  KernelInterface iface;
};

}  // namespace vyre::cuda
