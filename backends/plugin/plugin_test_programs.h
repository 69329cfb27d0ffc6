// The programs and inputs the plugin tests dispatch, with their expected
// bytes worked out by hand from spec/SEMANTICS.md.
#pragma once

#include "spec/ir/builder.h"
#include "spec/ir/host_abi.h"

namespace vyre::plugin::testing {

/// out[i] = in[i] * 2 + 1 (wrapping u32), one invocation per element.
inline Program doubling_program(uint32_t workgroup_width) {
  using namespace build;
  return Program{
      {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
      {workgroup_width, 1, 1},
      {store("out", invocation_id(0), add(mul(load("in", invocation_id(0)), u32(2)), u32(1)))}};
}

/// in = {1, 2, 0x80000000, 0xFFFFFFFF}; out = 16 zero bytes.
inline BufferSet doubling_inputs() {
  return {{"in", {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff}},
          {"out", ByteBuffer(16, 0)}};
}

/// {3, 5, 1, 0xFFFFFFFF}: 0x80000000 * 2 wraps to 0; 0xFFFFFFFF * 2 + 1 wraps to itself.
inline ByteBuffer doubling_expected() {
  return {3, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
}

/// doubling_inputs()'s "out" with every byte plus one: the misbehaving plugin's "ok".
inline ByteBuffer incremented_out() {
  return ByteBuffer(16, 1);
}

}  // namespace vyre::plugin::testing
