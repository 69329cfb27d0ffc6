// The arguments last set on one kernel object, so that a dispatch sets only
// those that changed since: a host-driven case dispatches the same kernel
// hundreds of times with mostly the same buffers bound, and on NVIDIA's
// driver every call costs microseconds.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "backends/opencl/opencl_api.h"

namespace vyre::opencl {

/// What clSetKernelArg last set on one kernel object through set(). Whoever
/// sets an argument on that object another way calls forget() first. A
/// memory object's handle may be taken again by a new object once the old one
/// is released, and a driver (PoCL) may keep the old object's memory for an
/// argument set to the handle: so whoever releases a buffer that may be an
/// argument bumps its pool's release count, and a changed count forgets
/// (within()).
class KernelArguments {
 public:
  /// Forgets every argument unless `releases` (the lane's pool's count of
  /// released buffers) is the count the arguments were set under.
  void within(uint64_t releases) {
    if (releases != releases_) forget();
    releases_ = releases;
  }
  /// clSetKernelArg, unless argument `index` already holds these `size`
  /// bytes from an earlier set(); a failed call forgets every argument.
  cl_int set(const OpenClApi& api, cl_kernel kernel, cl_uint index, size_t size,
             const void* value) {
    if (index >= last_.size()) last_.resize(index + 1);
    std::vector<uint8_t>& last = last_[index];
    const auto* bytes = static_cast<const uint8_t*>(value);
    if (last.size() == size && size != 0 && std::memcmp(last.data(), bytes, size) == 0) {
      return CL_SUCCESS;
    }
    const cl_int error = api.clSetKernelArg(kernel, index, size, value);
    if (error != CL_SUCCESS) {
      forget();
      return error;
    }
    last.assign(bytes, bytes + size);
    return error;
  }
  /// Forgets every argument: the next set() of each calls the driver.
  void forget() { last_.clear(); }

 private:
  std::vector<std::vector<uint8_t>> last_;  ///< By index; empty: not known.
  uint64_t releases_ = 0;
};

}  // namespace vyre::opencl
