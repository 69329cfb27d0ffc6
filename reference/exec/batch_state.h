// The mutable state of the lockstep core while it runs one batch of lanes: the
// register file of lane vectors (structure of arrays: register r holds one
// u32 per lane), the active mask, the memory of every buffer, counters, and
// the observers to notify. Compiled nodes (lane_expr.h, lane_stmt.h) read and
// write nothing else.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "reference/exec/lane_schedule.h"
#include "reference/interpreter.h"
#include "reference/memory_budget.h"
#include "reference/observers/observer.h"
#include "spec/ir/program.h"

namespace vyre::reference {

/// A register: a permanent one (ids, constants, variables, masks) or a
/// temporary of the statement being evaluated.
struct Reg {
  uint32_t index = 0;
  bool temp = false;
};

/// One buffer's addressable elements during a run: read-only buffers are read
/// in place from the host bytes, ReadWrite ones are edited in the output
/// bytes, workgroup ones in memory zeroed per workgroup. Words go through
/// memcpy, so host bytes need no alignment.
struct BufferMemory {
  const uint8_t* data = nullptr;
  /// Null for ReadOnly and Uniform buffers (the compiler allows no writes).
  uint8_t* writable = nullptr;
  /// Element count (BufLen); always below 2^32 (checked before the run). For
  /// Bytes it counts a partial last word past `data`'s end, which is safe
  /// because the compiler lets nothing load, store or atomically update Bytes.
  uint64_t elements = 0;
  uint32_t words_per_element = 1;
  /// Bool elements: a load yields word != 0 (SEMANTICS S2).
  bool is_bool = false;
  /// Some observer wants this buffer's in-bounds accesses.
  bool watched = false;

  /// Word `w` of the buffer (little-endian, as on the host).
  uint32_t word(size_t w) const {
    uint32_t v;
    std::memcpy(&v, data + w * 4, sizeof v);
    return v;
  }
  /// Sets word `w` of a writable buffer.
  void set_word(size_t w, uint32_t v) const { std::memcpy(writable + w * 4, &v, sizeof v); }
};

/// Budget steps charged per node executed (expression, statement or loop
/// iteration) on top of its lanes: roughly what dispatching one node costs.
inline constexpr uint64_t kStepsPerNode = 16;

/// Budget steps charged per access reported to observers: checking one
/// (race shadow records) costs about this many lane-operations.
inline constexpr uint64_t kStepsPerObservedAccess = 10;

/// Why a run stopped before finishing.
enum class StopReason : uint8_t { None, StepBudget, MemoryLimit };

/// Everything the compiled nodes touch while a batch runs.
struct BatchState {
  /// Lanes per register; a batch uses the first `lanes` of them.
  uint32_t width = 0;
  uint32_t lanes = 0;
  /// Register file: `permanent` registers, then the temporaries.
  uint32_t* file = nullptr;
  uint32_t permanent = 0;

  /// Current active mask (0 or ~0 per lane) and its population.
  uint32_t* mask = nullptr;
  uint32_t active = 0;
  /// Lanes that have not executed Return (0 or ~0 per lane).
  uint32_t* alive = nullptr;
  /// Number of Return executions so far; enclosing nodes re-mask when it moves.
  uint64_t returns = 0;

  std::vector<BufferMemory> buffers;
  /// Linear invocation id per lane (DispatchShape numbering).
  std::span<const uint32_t> invocation;

  LaneSchedule* schedule = nullptr;
  /// Solo stepping (Schedule::Stepping::Solo, unobserved runs only):
  /// stretches of statements without a barrier run one lane at a time.
  bool solo = false;
  /// Node evaluations x active lanes (RunResult::lane_ops, reported).
  uint64_t lane_ops = 0;
  /// Budget steps spent: every node costs the batch's `lanes` (the kernels
  /// compute inactive lanes too) plus kStepsPerNode, every access reported to
  /// observers kStepsPerObservedAccess, and every batch its setup
  /// (charge_setup()).
  uint64_t steps = 0;
  uint64_t step_budget = 0;
  StopReason stop = StopReason::None;
  SourceLoc stop_loc;
  /// The run's memory, which observers' records grow into (null: no limit).
  const MemoryBudget* memory = nullptr;
  OobCounts oob;

  /// Observers of this run; empty selects the unobserved fast paths.
  std::span<Observer* const> observers;
  /// Scratch for AccessEvent lists, `width` entries each.
  std::vector<uint32_t> event_lanes;
  std::vector<uint32_t> event_indices;

  /// First word of register r; word k of lane l is at [k * width + l].
  uint32_t* at(Reg r) const {
    return file + (static_cast<size_t>(r.temp ? permanent + r.index : r.index) * width);
  }
  /// Whether every lane of the batch is active (enables unmasked fast paths).
  bool full() const { return active == lanes; }
  /// Makes `m` the active mask and counts its lanes.
  void set_mask(uint32_t* m) {
    mask = m;
    uint32_t n = 0;
    for (uint32_t l = 0; l < lanes; ++l) n += m[l] & 1u;
    active = n;
  }
  /// Removes returned lanes from `m` (the mask of an enclosing node).
  void drop_returned(uint32_t* m) const {
    for (uint32_t l = 0; l < lanes; ++l) m[l] &= alive[l];
  }
  /// Counts one node executed for the batch: a lane-operation per active
  /// lane, and a budget step per lane its kernel computes plus kStepsPerNode.
  void count_node() {
    lane_ops += active;
    steps += lanes + kStepsPerNode;
  }
  /// Charges a statement or loop iteration; false once the step budget is
  /// exhausted. Steps follow the work done rather than the active lanes, so
  /// one lane looping in a 64-lane batch costs 64 steps per node and a
  /// runaway program stops in bounded time however few lanes are active.
  bool charge(SourceLoc loc) {
    count_node();
    return within_budget(loc);
  }
  /// Charges `words` of per-batch setup (ids, masks, zeroing workgroup
  /// memory); false once the step budget is exhausted.
  bool charge_setup(uint64_t words) {
    steps += words + kStepsPerNode;
    return within_budget(SourceLoc{});
  }
  /// Whether the budget still holds; records the stop and its node if not.
  bool within_budget(SourceLoc loc) {
    if (steps <= step_budget) return true;
    if (stop == StopReason::None) {
      stop = StopReason::StepBudget;
      stop_loc = loc;
    }
    return false;
  }
  /// Stops the run at `loc` once an observer was refused memory: its records
  /// are incomplete and the run ends with the memory-limit Error.
  void check_memory(SourceLoc loc) {
    if (memory == nullptr || !memory->refused() || stop != StopReason::None) return;
    stop = StopReason::MemoryLimit;
    stop_loc = loc;
  }
  /// The lanes as observers see them.
  BatchView view() const { return BatchView{invocation.subspan(0, lanes)}; }
};

}  // namespace vyre::reference
