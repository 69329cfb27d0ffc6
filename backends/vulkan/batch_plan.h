// How the runs of a batch map onto submissions and output slots, as a pure
// function (batch_run.cc records what it says).
#pragma once

#include <cstdint>

#include "backends/backend.h"
#include "backends/mutants/mutant.h"

namespace vyre::vulkan {

/// Most runs recorded in one command buffer: bounds descriptor sets and the
/// work one fence wait covers.
inline constexpr uint32_t kMaxRunsPerSubmission = 256;

/// Runs [k * chunk, (k + 1) * chunk) make submission k. Run 0 keeps slot 0
/// for the whole batch (every other run is compared with it); the other runs
/// of a submission take distinct slots among 1..chunk, reused by the next.
struct BatchPlan {
  uint32_t runs = 1;
  uint32_t chunk = 1;  ///< Runs per submission.
  uint32_t slots = 1;  ///< Output slots the batch holds.

  uint32_t submissions() const { return (runs + chunk - 1) / chunk; }
  uint32_t slot_of(uint32_t run) const {
    if (mutant_active(Mutant::BatchSlotOfWraps)) return run % (chunk + 1);
    return run == 0 ? 0 : 1 + run % chunk;
  }
};

/// The plan for `options` when one run's outputs take `bytes_per_run` and
/// the slots may take `slot_budget_bytes` in all: at least the submissions
/// asked for, more when the slots would not fit (never fewer than 1 run per
/// submission), at most kMaxRunsPerSubmission runs each.
BatchPlan plan_batch(const BatchOptions& options, uint64_t bytes_per_run,
                     uint64_t slot_budget_bytes);

}  // namespace vyre::vulkan
