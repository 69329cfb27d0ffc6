// How the runs of one batch are laid out on the device, as a pure function:
// how many runs' outputs the device holds at once (slots), and how many runs
// go in one submission (one wait on the stream).
#pragma once

#include <cstdint>

#include "backends/backend.h"

namespace vyre::cuda {

/// Bytes of run outputs a batch holds at once; a batch whose runs need more
/// spreads them over more submissions.
inline constexpr uint64_t kBatchSlotBytes = uint64_t{64} << 20;
/// Alignment of every slot: cuMemAlloc's own (256), so that a slot's pointer
/// is as aligned as a fresh buffer's (uint4 accesses need 16).
inline constexpr uint64_t kSlotAlignment = 256;

/// The layout of a batch.
struct BatchPlan {
  uint32_t runs = 1;  ///< Runs in all (at least 1).
  /// Runs per submission, and output slots allocated (a run uses slot run % chunk).
  uint32_t chunk = 1;
  /// Whether read_write buffers keep a pristine copy that each run's slot is
  /// initialised from (more than one run); a single run writes its upload.
  bool pristine = false;
};

/// The plan for `options` when one run's outputs take `per_run_bytes`
/// (slots aligned): at least options.submissions submissions, slots within
/// `budget_bytes` unless a single run needs more, every count at least 1.
BatchPlan plan_batch(const BatchOptions& options, uint64_t per_run_bytes, uint64_t budget_bytes);

/// `bytes` rounded up to kSlotAlignment.
uint64_t slot_stride(uint64_t bytes);

}  // namespace vyre::cuda
