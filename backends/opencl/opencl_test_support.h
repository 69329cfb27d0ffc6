// Helpers of the OpenCL backend tests: the shared backend (a missing device
// FAILS the test, never skips it), a device's queue, a spinning program, and
// every backend's helpers (backends/backend_test_support.h).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/backend_test_support.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/lowering.h"
#include "backends/opencl/opencl_backend.h"
#include "backends/opencl/opencl_device.h"
#include "backends/opencl/program_builder.h"
#include "spec/ir/program.h"

namespace vyre::opencl::testing {

/// Every backend's helpers (backends/backend_test_support.h).
using backend_testing::describe;
using backend_testing::run_ok;
using backend_testing::words;

/// The backend shared by a test binary (one context per process). When no
/// OpenCL device is usable the calling test fails with the reason.
OpenClBackend& shared_backend();

/// Opens the ICD loader into `api`, picks the first usable device and makes
/// a queue on it (holding a reference to `api`, which must stay put); the
/// calling test fails (fatally: check HasFatalFailure) without them.
void open_device_queue(OpenClApi& api, ClDevice& device, std::shared_ptr<ClQueue>& queue);

/// A program in which one invocation runs `rounds` (read from `n`) rounds of a
/// xorshift, which no compiler can fold, and stores the result in `out`: a
/// kernel as long as the test asks (timeouts, hung lanes).
Program spinning_program();

/// A queue on the first usable device, a buffer pool on it, and one program
/// lowered and built there: what the runtime's fixtures share. A fixture's
/// SetUp calls open_queue(), may then wrap api_ (the queue calls through it),
/// and calls build().
class ProgramOnQueue : public ::testing::Test {
 protected:
  /// Opens the device's queue (fatal failure without one).
  void open_queue();
  /// Makes the pool, lowers `program` into lowered_ and builds it into
  /// kernel_, with `extra` kernel sources built beside it into extra_ (fatal
  /// failure when one step fails).
  void build(const Program& program, const std::vector<std::string>& extra = {});
  /// Releases the kernels, then the pool.
  void TearDown() override;

  OpenClApi api_;
  ClDevice device_;
  std::shared_ptr<ClQueue> queue_;
  std::unique_ptr<BufferPool> pool_;
  LoweredKernel lowered_;
  std::shared_ptr<const BuiltKernel> kernel_;
  std::vector<std::shared_ptr<const BuiltKernel>> extra_;
};

}  // namespace vyre::opencl::testing
