// What NVRTC is asked to produce for one device, as a pure function of the
// device's compute capability and the architectures NVRTC knows: machine
// code (CUBIN) for the device's own architecture when NVRTC knows it, so the
// driver loads it as is; else PTX for the newest architecture below it,
// which the driver compiles forward.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "spec/support/result.h"

namespace vyre::cuda {

/// A compute capability, e.g. {9, 0} for the H100.
struct ComputeCapability {
  int major = 0;
  int minor = 0;
  /// The architecture number NVRTC uses: 10 * major + minor (90).
  int arch() const { return 10 * major + minor; }
};

/// What to compile for.
struct NvrtcTarget {
  int arch = 0;        ///< The architecture compiled for (90).
  bool cubin = false;  ///< CUBIN for sm_<arch>; otherwise PTX for compute_<arch>.
  /// The options of nvrtcCompileProgram, --gpu-architecture first.
  std::vector<std::string> options;
};

/// The target for a device of `device` given NVRTC's `supported` architectures
/// (nvrtcGetSupportedArchs, any order). Options besides the architecture:
/// --fmad=false (no contraction of a future float multiply and add) and no
/// fast-math flag of any kind. Errors: the device is older than every
/// architecture NVRTC supports (the message names both).
Result<NvrtcTarget> nvrtc_target(ComputeCapability device, std::span<const int> supported);

}  // namespace vyre::cuda
