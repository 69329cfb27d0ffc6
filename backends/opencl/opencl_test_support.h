// Helpers of the OpenCL backend tests: the shared backend (a missing device
// FAILS the test, never skips it), a device's queue, a spinning program, and
// every backend's helpers (backends/backend_test_support.h).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend_test_support.h"
#include "backends/opencl/opencl_backend.h"
#include "backends/opencl/opencl_device.h"
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

}  // namespace vyre::opencl::testing
