// OpenCL C 1.2 as a dialect of the shared C-like lowering (backends/clike).
#pragma once

#include "backends/clike/dialect.h"
#include "backends/clike/kernel_buffers.h"

namespace vyre::opencl {

/// How the lowering spells OpenCL C 1.2 kernels.
const clike::Dialect& opencl_c_dialect();

/// How an OpenCL C kernel declares its buffers (address spaces, __local arrays).
const clike::KernelSpelling& opencl_c_kernel();

}  // namespace vyre::opencl
