// CUDA C (C++ for NVRTC) as a dialect of the shared C-like lowering
// (backends/clike), the third beside GLSL and OpenCL C.
#pragma once

#include "backends/clike/dialect.h"
#include "backends/clike/kernel_buffers.h"

namespace vyre::cuda {

/// How the lowering spells CUDA C kernels.
const clike::Dialect& cuda_c_dialect();

/// How a CUDA C kernel declares its buffers (plain pointers, __shared__ arrays).
const clike::KernelSpelling& cuda_c_kernel();

}  // namespace vyre::cuda
