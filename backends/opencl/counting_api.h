// Test support: counts the driver calls made through an OpenClApi, so that a
// test can bound how many calls a path makes (a deterministic count, where
// a timing would depend on the machine).
#pragma once

#include <cstdint>
#include <string_view>

#include "backends/opencl/opencl_api.h"

namespace vyre::opencl::testing {

/// Calls through the OpenClApi given to wrap(), by entry point. The counts
/// are process-wide: one wrapped OpenClApi at a time.
class CallCounts {
 public:
  /// Replaces each entry point of `api` by one that counts the call, then
  /// makes it through the entry point it replaced; resets the counts.
  static void wrap(OpenClApi& api);
  /// Zeroes every count.
  static void reset();
  /// Calls of `name` ("clSetKernelArg") since the last reset; 0 for a name
  /// that is no entry point.
  static uint64_t of(std::string_view name);
  /// Calls of every clEnqueue* entry point since the last reset.
  static uint64_t enqueues();
};

}  // namespace vyre::opencl::testing
