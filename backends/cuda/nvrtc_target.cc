// Choosing NVRTC's architecture and options.
#include "backends/cuda/nvrtc_target.h"

#include <algorithm>

namespace vyre::cuda {

Result<NvrtcTarget> nvrtc_target(ComputeCapability device, std::span<const int> supported) {
  const int wanted = device.arch();
  int best = 0;
  for (int arch : supported) {
    if (arch <= wanted) best = std::max(best, arch);
  }
  if (best == 0) {
    const auto [lo, hi] = std::minmax_element(supported.begin(), supported.end());
    return Error{"the device's compute capability " + std::to_string(device.major) + "." +
                 std::to_string(device.minor) + " is older than every architecture this NVRTC " +
                 "compiles for" +
                 (supported.empty()
                      ? std::string(" (it lists none)")
                      : " (sm_" + std::to_string(*lo) + " to sm_" + std::to_string(*hi) + ")")};
  }
  NvrtcTarget target;
  target.arch = best;
  target.cubin = best == wanted;
  target.options = {
      std::string("--gpu-architecture=") + (target.cubin ? "sm_" : "compute_") +
          std::to_string(best),
      "--fmad=false",
  };
  return target;
}

}  // namespace vyre::cuda
