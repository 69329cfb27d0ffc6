// Program -> validated -> CUDA C.
#include "backends/cuda/lowering.h"

#include "backends/clike/kernel_buffers.h"
#include "backends/cuda/cuda_c_dialect.h"

namespace vyre::cuda {
namespace {

/// Largest workgroup __launch_bounds__ can name.
constexpr uint64_t kMaxKernelInt = 0x7FFFFFFF;

}  // namespace

Result<std::string> emit_cuda_c(const Program& program, const KernelInterface& iface,
                                const OpRegistry& ops) {
  // The workgroup's invocations as the most a block of this kernel has, so
  // NVRTC allots registers for a block of that size (spilling if it must)
  // rather than leaving the kernel unlaunchable at it.
  const std::string head = "extern \"C\" __global__ void __launch_bounds__(" +
                           std::to_string(iface.workgroup_invocations()) + ") " + kKernelName;
  return clike::kernel_source(program, iface, cuda_c_dialect(), cuda_c_kernel(), "cuda", head, ops);
}

Result<LoweredKernel> lower_program(const Program& program, uint32_t loop_iteration_budget) {
  return clike::lower_to_source<KernelInterface>(program, loop_iteration_budget,
                                                 beyond_cuda_c_limits, emit_cuda_c);
}

std::optional<std::string> beyond_cuda_c_limits(const Program& program) {
  const uint64_t invocations = kernel_interface_of(program, 0).workgroup_invocations();
  if (invocations <= kMaxKernelInt) return std::nullopt;
  return "the workgroup's " + std::to_string(invocations) + " invocations are past " +
         std::to_string(kMaxKernelInt) +
         ", the largest int __launch_bounds__ takes, so no CUDA kernel can express this program";
}

LoweringOutcome lower_for_backend(const Program& program, uint32_t loop_iteration_budget) {
  Result<LoweredKernel> lowered = lower_program(program, loop_iteration_budget);
  if (lowered.ok()) return {Status::Ok, "", std::move(*lowered)};
  const bool not_supported = clike::refused_only_by_limits(program, beyond_cuda_c_limits);
  return {not_supported ? Status::NotSupported : Status::CompileError, lowered.error().message, {}};
}

}  // namespace vyre::cuda
