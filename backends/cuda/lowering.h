// The CUDA lowering as one pure function: vyre Program -> CUDA C source, the
// shared C-like emitter (backends/clike/emitter.h) in the CUDA C dialect with
// the buffers reached through guarded statements (clike/kernel_buffers.h).
// Used by the backend's compile() and by `vyre-certify lower --backend cuda`.
#pragma once

#include <optional>
#include <string>

#include "backends/backend_options.h"
#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/kernel_interface.h"
#include "spec/ir/op_registry.h"
#include "spec/support/result.h"

namespace vyre::cuda {

/// CUDA C source of `program` with the parameters `iface` describes. The
/// program must be valid; a node the emitter cannot lower (validation rejects
/// every such node) is an Error naming it.
Result<std::string> emit_cuda_c(const Program& program, const KernelInterface& iface,
                                const OpRegistry& ops = OpRegistry::standard());

/// Validates `program` and emits its CUDA C. Touches no device and runs no
/// NVRTC (the backend compiles the source at the first dispatch or in
/// prepare()). Errors: the validator's diagnostics for an invalid program;
/// beyond_cuda_c_limits' message for a valid one no kernel can express.
Result<LoweredKernel> lower_program(const Program& program,
                                    uint32_t loop_iteration_budget = kDefaultLoopIterationBudget);

/// Why `program` cannot be written as a CUDA C kernel whatever the device: a
/// workgroup of more than 2^31 - 1 invocations (the int __launch_bounds__
/// takes); nullopt when it can. Device limits are checked at dispatch instead.
std::optional<std::string> beyond_cuda_c_limits(const Program& program);

/// lower_program as the backend's KernelLowering: CompileError for an invalid
/// program, NotSupported for a valid one beyond_cuda_c_limits refuses.
LoweringOutcome lower_for_backend(const Program& program, uint32_t loop_iteration_budget);

}  // namespace vyre::cuda
