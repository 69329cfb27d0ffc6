// NVRTC, the CUDA C runtime compiler, opened at run time like the driver
// (cuda_api.h): no toolkit at build time. Its soname carries the CUDA major
// version, so the library is searched for by name (nvrtc_library_candidates).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spec/support/result.h"

namespace vyre::cuda {

/// nvrtcResult: 0 is success.
using nvrtcResult = int;
/// An NVRTC program handle.
using nvrtcProgram = struct _nvrtcProgram*;

/// NVRTC_SUCCESS and NVRTC_ERROR_COMPILATION (nvrtc.h).
inline constexpr nvrtcResult kNvrtcSuccess = 0;
inline constexpr nvrtcResult kNvrtcErrorCompilation = 6;

/// The environment variable that names the NVRTC library to load (a path or
/// a soname) instead of searching for it.
inline constexpr const char* kNvrtcLibraryVariable = "VYRE_NVRTC_LIBRARY";

/// Entry points of NVRTC (nvrtc_functions.def).
struct NvrtcApi {
#define NVRTC(name, ret, params) ret(*name) params = nullptr;
#include "backends/cuda/nvrtc_functions.def"
#undef NVRTC
  /// The library that was loaded, as it was named to dlopen.
  std::string library;
  /// nvrtcVersion(), e.g. 12 and 4.
  int major = 0;
  int minor = 0;
  /// The virtual architectures NVRTC compiles for (nvrtcGetSupportedArchs: 50, 52, ..., 90).
  std::vector<int> supported_archs;

  /// Opens the first loadable library of nvrtc_library_candidates(the
  /// variable's value) whose version suits the driver's (`driver_version` as
  /// cuDriverGetVersion gives it, 12040 for 12.4; 0 when unknown) and looks
  /// up every entry point. Errors name every library tried and why it failed.
  static Result<NvrtcApi> open(int driver_version);
};

/// The libraries to try, in order: only `override` when it is not empty (a
/// user who names one means that one); else the unversioned soname, then
/// those of CUDA 13, 12 and 11.2+, then the same in /usr/local/cuda/lib64.
std::vector<std::string> nvrtc_library_candidates(std::string_view override);

/// Whether code from NVRTC `nvrtc_major` loads on a driver of
/// `driver_version` (cuDriverGetVersion; 0: unknown, assumed yes): CUBIN and
/// PTX of a newer major CUDA version need a newer driver.
bool nvrtc_suits_driver(int nvrtc_major, int driver_version);

/// nvrtcGetErrorString's text of `result`, or "nvrtcResult N".
std::string nvrtc_error_name(const NvrtcApi& api, nvrtcResult result);

}  // namespace vyre::cuda
