// Test support: counts the driver calls made through an OpenClApi, so that a
// test can bound how many calls a path makes (a deterministic count, where
// a timing would depend on the machine), and times them for people reading
// where a driver spends a batch's host time.
#pragma once

#include <cstdint>
#include <string>
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
  /// Every entry point called since the last reset, a line each, most time
  /// first: its calls and the host time spent inside them. For people
  /// measuring a driver (on NVIDIA's, where each call costs microseconds);
  /// no test judges a time.
  static std::string table();
};

}  // namespace vyre::opencl::testing
