// OpenCL C 1.2 as a dialect of the shared C-like lowering (backends/clike).
#pragma once

#include "backends/clike/dialect.h"

namespace vyre::opencl {

/// How the lowering spells OpenCL C 1.2 kernels.
const clike::Dialect& opencl_c_dialect();

}  // namespace vyre::opencl
