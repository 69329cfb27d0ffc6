// The OpenCL ICD loader, opened at run time. The binary does not link
// libOpenCL, so it starts (and every other backend works) on a machine
// without one, such as a GPU host with only the Vulkan driver, and a missing
// loader is a clear message instead of a failed start.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
// 1.2: the API both PoCL and NVIDIA's driver implement in full.
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <string>

#include "spec/support/result.h"

namespace vyre::opencl {

/// Entry points of the ICD loader.
struct OpenClApi {
#define CL(name) decltype(&::name) name = nullptr;
#include "backends/opencl/opencl_functions.def"
#undef CL

  /// Opens libOpenCL.so.1 and looks up every entry point. The library stays
  /// loaded for the life of the process (an abandoned queue may still run).
  static Result<OpenClApi> open();
};

/// "CL_OUT_OF_RESOURCES" etc.
std::string cl_error_name(cl_int code);

}  // namespace vyre::opencl
