// The observer side of Load, Store and Atomic: the core does the access and
// counts out-of-bounds ones; this reports them to observers, in-bounds ones
// of watched buffers in the order they happened.
#pragma once

#include <cstdint>

#include "reference/exec/batch_state.h"

namespace vyre::reference {

/// Collects the in-bounds accesses of one node and reports them to observers.
class AccessRecorder {
 public:
  AccessRecorder(BatchState& s, uint32_t buffer, uint32_t site, AccessKind kind, SourceLoc loc)
      : s_(s),
        buffer_(buffer),
        site_(site),
        kind_(kind),
        loc_(loc),
        watched_(s.buffers[buffer].watched) {}

  /// Records lane `lane` accessing in-bounds element `index`.
  void in_bounds(uint32_t lane, uint32_t index) {
    if (!watched_) return;
    s_.event_lanes[count_] = lane;
    s_.event_indices[count_] = index;
    ++count_;
  }
  /// Tells the observers of an out-of-bounds access (the caller counts it).
  void out_of_bounds(uint32_t lane, uint32_t index) {
    s_.steps += kStepsPerObservedAccess;
    const OutOfBoundsEvent event{buffer_, kind_, loc_, lane, index, s_.buffers[buffer_].elements};
    for (Observer* o : s_.observers) o->on_out_of_bounds(s_.view(), event);
  }
  /// Sends the recorded accesses to the observers; stops the run if one of
  /// them was refused memory for its records.
  void flush() {
    if (count_ == 0) return;
    s_.steps += uint64_t{count_} * kStepsPerObservedAccess;
    const AccessEvent event{buffer_,
                            kind_,
                            loc_,
                            site_,
                            std::span<const uint32_t>(s_.event_lanes.data(), count_),
                            std::span<const uint32_t>(s_.event_indices.data(), count_)};
    for (Observer* o : s_.observers) o->on_access(s_.view(), event);
    count_ = 0;
    s_.check_memory(loc_);
  }

 private:
  BatchState& s_;
  uint32_t buffer_;
  uint32_t site_;
  AccessKind kind_;
  SourceLoc loc_;
  bool watched_;
  uint32_t count_ = 0;
};

}  // namespace vyre::reference
