// Host-side hooks of the seeded bugs (mutants.def) that dispatch_run.cc and
// batch_run.cc share: each returns its argument unchanged unless its mutant
// is selected, which only the test-only mutant build can do.
#pragma once

#include <array>
#include <cstdint>

#include "backends/mutants/mutant.h"
#include "spec/ir/host_abi.h"
#include "spec/ir/types.h"

namespace vyre::vulkan {

/// `outputs` as a run returns them: FlakyOutputByte, once in 16 runs, flips
/// one bit of the first non-empty output.
inline BufferSet returned_outputs(BufferSet outputs) {
  if (!mutant_fires(Mutant::FlakyOutputByte)) return outputs;
  for (auto& [name, bytes] : outputs) {
    if (bytes.empty()) continue;
    bytes[0] ^= 1;
    break;
  }
  return outputs;
}

/// The workgroups actually dispatched for `grid`.
inline std::array<uint32_t, 3> dispatched_grid(std::array<uint32_t, 3> grid) {
  if (mutant_active(Mutant::GridDropsZ)) grid[2] = 1;
  if (mutant_active(Mutant::GridYTakesX)) grid[1] = grid[0];
  return grid;
}

/// How many of a buffer's `host_bytes` are copied to the device.
inline uint64_t uploaded_bytes(uint64_t host_bytes, BufferAccess access) {
  if (mutant_active(Mutant::ReadWriteInputNotUploaded) && access == BufferAccess::ReadWrite)
    return 0;
  if (mutant_active(Mutant::UploadDropsTrailingBytes)) return host_bytes & ~uint64_t{3};
  return host_bytes;
}

/// The bytes a uniform descriptor covers, given the correct `range`.
inline uint64_t uniform_range(uint64_t range) {
  return mutant_active(Mutant::UniformRangeOneRow) && range > 16 ? 16 : range;
}

/// The bytes the element count pushed to the shader is computed from.
inline uint64_t counted_bytes(uint64_t host_bytes, uint64_t bound_bytes) {
  return mutant_active(Mutant::PushCountRoundedUp) ? bound_bytes : host_bytes;
}

/// The bytes read back of an output of `host_bytes` bound as `bound_bytes`.
inline uint64_t read_back_bytes(uint64_t host_bytes, uint64_t bound_bytes) {
  return mutant_active(Mutant::ReadbackBoundBytes) ? bound_bytes : host_bytes;
}

}  // namespace vyre::vulkan
