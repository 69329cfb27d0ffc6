// A program with two read_write buffers and the bytes it leaves, for the
// batch tests of every backend (BatchOptions::scratch: one buffer judged,
// the other not). Expected bytes are written from the program's arithmetic,
// not by a backend.
#pragma once

#include <cstdint>
#include <vector>

#include "spec/ir/builder.h"
#include "spec/ir/host_words.h"
#include "spec/ir/program.h"

namespace vyre::testing {

/// a[i] = i + 100 and b[i] = 2 * i for 64 invocations: two read_write
/// buffers, `a` bound first (the one perturb_run_for_testing overwrites
/// word 0 of).
inline Program two_outputs_program() {
  using namespace vyre::build;
  return {{storage("a", 0, BufferAccess::ReadWrite), storage("b", 1, BufferAccess::ReadWrite)},
          {64, 1, 1},
          {store("a", invocation_id(0), add(invocation_id(0), u32(100))),
           store("b", invocation_id(0), mul(invocation_id(0), u32(2)))}};
}

/// What two_outputs_program leaves in `a`, word 0 perturbed (0x5A5A5A5A) or not.
inline ByteBuffer two_outputs_a(bool perturbed) {
  std::vector<uint32_t> a(64);
  for (uint32_t i = 0; i < 64; ++i) a[i] = i + 100;
  if (perturbed) a[0] = 0x5A5A5A5A;
  return to_bytes(a);
}

/// What two_outputs_program leaves in `b`.
inline ByteBuffer two_outputs_b() {
  std::vector<uint32_t> b(64);
  for (uint32_t i = 0; i < 64; ++i) b[i] = 2 * i;
  return to_bytes(b);
}

}  // namespace vyre::testing
