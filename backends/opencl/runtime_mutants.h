// Hooks of the OpenCL runtime's seeded bugs (backends/mutants/mutants.def,
// where `opencl`): each returns its argument unchanged unless its mutant is
// selected, which only the test-only mutant build can do.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "backends/mutants/mutant.h"

namespace vyre::opencl {

/// The element count passed for bound buffer i, given every buffer's count.
inline uint32_t count_argument(const uint32_t* counts, size_t i) {
  return mutant_active(Mutant::CountArgsOfFirstBuffer) ? counts[0] : counts[i];
}

/// Whether an upload zeroes a pool buffer's bytes past the host's.
inline bool zeroes_past_host_bytes() {
  return !mutant_active(Mutant::PoolReuseKeepsOldBytes);
}

/// The NDRange's global size from the correct one and the workgroup size.
inline std::array<size_t, 3> global_size(std::array<size_t, 3> global,
                                         const std::array<size_t, 3>& local) {
  if (mutant_active(Mutant::GlobalSizeDropsZ)) global[2] = local[2];
  return global;
}

/// The bytes read back of an output of `host_bytes`.
inline size_t read_back_bytes(size_t host_bytes) {
  const size_t words = host_bytes & ~size_t{3};
  return mutant_active(Mutant::ReadbackWholeWordsOnly) && words != 0 ? words : host_bytes;
}

}  // namespace vyre::opencl
