// Helpers of the OpenCL backend tests: byte buffers from words, the shared
// backend (a missing device FAILS the test, never skips it), a runner, and
// buffers described as hex words for failure messages.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "backends/opencl/opencl_backend.h"
#include "backends/opencl/opencl_device.h"
#include "spec/ir/program.h"

namespace vyre::opencl::testing {

/// Little-endian bytes of `values`.
ByteBuffer words(std::initializer_list<uint32_t> values);
ByteBuffer words(const std::vector<uint32_t>& values);

/// The backend shared by a test binary (one context per process). When no
/// OpenCL device is usable the calling test fails with the reason.
OpenClBackend& shared_backend();

/// Opens the ICD loader into `api`, picks the first usable device and makes
/// a queue on it (holding a reference to `api`, which must stay put); the
/// calling test fails (fatally: check HasFatalFailure) without them.
void open_device_queue(OpenClApi& api, ClDevice& device, std::shared_ptr<ClQueue>& queue);

/// Compiles and runs `program`; the test fails unless both succeed.
BufferSet run_ok(Backend& backend, const Program& program, const BufferSet& inputs,
                 const Grid& grid = {});

/// A program in which one invocation runs `rounds` (read from `n`) rounds of a
/// xorshift, which no compiler can fold, and stores the result in `out`: a
/// kernel as long as the test asks (timeouts, hung lanes).
Program spinning_program();

/// Buffers as hex words, for failure messages.
std::string describe(const BufferSet& buffers);

}  // namespace vyre::opencl::testing
