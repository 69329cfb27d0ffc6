// Runs a compiled program over the whole grid in batches of lanes: one
// workgroup per batch when the program has a Barrier or workgroup buffers,
// otherwise several whole workgroups side by side (observationally the same:
// without barriers or shared memory nothing couples invocations except
// atomics, and lockstep is one valid interleaving of those).
#pragma once

#include <span>

#include "reference/dispatch_shape.h"
#include "reference/exec/lane_compiler.h"
#include "reference/exec/run_checks.h"
#include "reference/interpreter.h"
#include "reference/memory_budget.h"
#include "reference/observers/observer.h"

namespace vyre::reference {

/// Lanes a batch aims for when several workgroups may share it: wide enough to
/// amortise per-node dispatch, and narrow, because every lane of a batch
/// runs until its slowest lane is done. Lanes whose loops run for
/// data-dependent counts (the dataflow engine over a skewed graph) diverge:
/// on its R-MAT case 64 lanes ran 3.7x faster than 2048 and 1.9x faster than
/// 256, while straight-line programs (L5, the saturation cases) ran as fast.
inline constexpr uint32_t kTargetBatchLanes = 64;

/// What one execution needs beyond the program.
struct ExecutionPlan {
  const Program* program = nullptr;
  DispatchShape shape;
  BufferSizes sizes;
  /// Memory the observers' fixed shadow arrays will use, reserved up front.
  uint64_t observer_bytes = 0;
};

/// Executes `compiled` on `inputs`; violations come from `observers`.
/// `memory` (of options.max_memory_bytes) gets the buffers, registers and
/// observer_bytes reserved before the run, and the observers' growth during
/// it; a refusal ends the run with the memory-limit Error.
Result<RunResult> execute(const ExecutionPlan& plan, const LaneProgram& compiled,
                          const BufferSet& inputs, const RunOptions& options,
                          std::span<Observer* const> observers, MemoryBudget& memory);

}  // namespace vyre::reference
