// Schedules (interpreter.h Schedule): the order of workgroups, the order in
// which the lanes of one side-effecting lockstep operation apply (this is the
// order atomics and racing stores take effect), and which arm of an If runs
// first. Every order is a valid interleaving, so a race-free program gives the
// same bytes under all of them, while order dependence is exposed.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "reference/interpreter.h"

namespace vyre::reference {

/// The orders of one run under a Schedule.
class LaneSchedule {
 public:
  /// Orders for `workgroups` workgroups under `schedule`.
  LaneSchedule(const Schedule& schedule, uint32_t workgroups);

  /// The linear workgroup that runs in position `position` (a bijection on
  /// [0, workgroups) computed on the fly, so no table of workgroups is kept).
  uint32_t workgroup_at(uint32_t position) const;

  /// The workgroup in slot `slot` of the batch that covers schedule positions
  /// [first, first + count). Reversed fills the slots in ascending order so
  /// that its reversed lane order runs the whole dispatch backwards.
  uint32_t batch_workgroup(uint32_t first, uint32_t count, uint32_t slot) const {
    const uint32_t offset = kind_ == Schedule::Kind::Reversed ? count - 1 - slot : slot;
    return workgroup_at(first + offset);
  }
  /// Prepares lane orders for a batch of `lanes` lanes.
  void begin_batch(uint32_t lanes);
  /// Order in which the lanes of the next side-effecting operation apply.
  std::span<const uint32_t> next_lane_order();
  /// While one lane of the batch runs alone (solo stepping), every operation
  /// has that one lane, lane 0 of its one-lane window.
  void enter_window() { in_window_ = true; }
  /// Back to the batch's lane orders.
  void leave_window() { in_window_ = false; }
  /// Whether every lane order is the identity (Canonical), so an operation
  /// may run its lanes in a plain loop.
  bool canonical() const { return kind_ == Schedule::Kind::Canonical; }
  /// Whether the next If runs its else arm before its then arm.
  bool next_else_first();

 private:
  uint64_t next_random();

  Schedule::Kind kind_;
  uint32_t workgroups_;
  uint64_t state_;
  /// Random: bits of the power-of-two domain the workgroup bijection walks.
  uint32_t domain_bits_ = 0;
  std::array<uint64_t, 3> keys_ = {};
  /// Random lane orders of the current batch (kLaneOrders of them) or one
  /// canonical / reversed order.
  std::vector<std::vector<uint32_t>> lane_orders_;
  uint32_t lanes_ = 0;
  bool in_window_ = false;
};

}  // namespace vyre::reference
