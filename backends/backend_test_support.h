// Test-only helpers every backend's tests share, whatever the device: byte
// buffers from words, a compile-and-dispatch runner that fails the test
// unless both succeed, and buffers described as hex words for failure
// messages. A backend's own test support brings them into its namespace.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace vyre::backend_testing {

/// Little-endian bytes of `values`.
ByteBuffer words(std::initializer_list<uint32_t> values);
ByteBuffer words(const std::vector<uint32_t>& values);

/// Compiles and runs `program` on `backend`; the test fails unless both
/// succeed, and gets no outputs when either did not.
BufferSet run_ok(Backend& backend, const Program& program, const BufferSet& inputs,
                 const Grid& grid = {});

/// Buffers as hex words, for failure messages.
std::string describe(const BufferSet& buffers);

}  // namespace vyre::backend_testing
