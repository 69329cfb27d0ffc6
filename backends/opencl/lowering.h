// The OpenCL lowering as one pure function: vyre Program -> OpenCL C source.
// Used by the backend's compile() and by `vyre-certify lower --backend opencl`.
#pragma once

#include <optional>
#include <string>

#include "backends/backend_options.h"
#include "backends/clike/lowering_refusal.h"
#include "backends/opencl/kernel_interface.h"
#include "spec/support/result.h"

namespace vyre::opencl {

/// A program lowered for OpenCL: the kernel source (OpenCL C 1.2, one kernel
/// named kKernelName) and its arguments.
using LoweredKernel = clike::LoweredSource<KernelInterface>;

/// Validates `program` and emits its OpenCL C. Touches no device and runs no
/// OpenCL compiler (the driver builds the source at the first dispatch).
/// Errors: the validator's diagnostics for an invalid program;
/// beyond_opencl_c_limits' message for a valid one no kernel can express.
Result<LoweredKernel> lower_program(const Program& program,
                                    uint32_t loop_iteration_budget = kDefaultLoopIterationBudget);

/// Why `program` cannot be written as an OpenCL C kernel whatever the device:
/// a workgroup size or a workgroup array length past 2^31 - 1 (the int the
/// reqd_work_group_size attribute and array bounds are checked as); nullopt
/// when it can. Device limits are checked at dispatch instead.
std::optional<std::string> beyond_opencl_c_limits(const Program& program);

}  // namespace vyre::opencl
