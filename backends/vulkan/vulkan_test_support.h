// Helpers of the Vulkan backend tests: every backend's helpers
// (backends/backend_test_support.h), the shared backend (a missing device
// FAILS the test, never skips it) and a runner that checks a case at
// workgroup sizes 1 and 64 with zeroed and poisoned outputs.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "backends/backend_test_support.h"
#include "backends/vulkan/vulkan_backend.h"
#include "spec/ir/program.h"

namespace vyre::vulkan::testing {

/// Every backend's helpers (backends/backend_test_support.h).
using backend_testing::describe;
using backend_testing::run_ok;
using backend_testing::words;

/// `count` words of `value`.
ByteBuffer repeat(uint32_t value, size_t count);

/// The backend shared by a test binary (one device per process). When no
/// Vulkan device is usable the calling test fails with the reason.
VulkanBackend& shared_backend();

/// One hand-checked case.
struct Case {
  /// Its workgroup size is replaced by {wg, 1, 1} for each size run.
  Program program;
  /// Invocations along x; the grid is ceil(invocations / wg). With `guard`,
  /// the entry is wrapped in `if invocation_id(0) < invocations`.
  uint32_t invocations = 1;
  bool guard = true;
  /// Read-only and uniform buffers, and read_write ones whose initial bytes
  /// the program reads.
  BufferSet inputs;
  /// read_write buffers the program writes entirely: name -> words. Each run
  /// fills them with 0x00 and again with 0xAB bytes.
  std::map<std::string, size_t> outputs;
  /// Every read_write buffer after the run.
  BufferSet expected;
};

/// Runs `c` at workgroup sizes 1 and 64, each with zeroed and poisoned
/// outputs, and expects exactly `c.expected` every time.
void expect_case(const Case& c);

}  // namespace vyre::vulkan::testing
