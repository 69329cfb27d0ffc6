// The memory one run may use (RunOptions::max_memory_bytes), including what
// grows while it runs. run() reserves the buffers, registers and the
// observers' fixed shadow arrays before it starts; an observer whose records
// grow with what the program does (the race detector's records of elements
// that several invocations access) reserves each growth before allocating
// it. A refused reservation ends the run with the memory-limit Error, so
// nothing a run allocates escapes the limit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vyre::reference {

/// Bytes reserved against a run's memory limit.
class MemoryBudget {
 public:
  /// A budget of `limit` bytes, none reserved yet.
  explicit MemoryBudget(uint64_t limit) : limit_(limit) {}

  /// Reserves `bytes` for `what`; past the limit, reserves nothing, returns
  /// false and remembers the first refusal (refused(), refusal_what()).
  bool reserve(uint64_t bytes, std::string_view what) {
    if (bytes <= limit_ - used_) {
      used_ += bytes;
      return true;
    }
    if (!refused_) {
      refused_ = true;
      refused_total_ = used_ + bytes < used_ ? UINT64_MAX : used_ + bytes;
      refused_what_ = what;
    }
    return false;
  }
  /// Gives back `bytes` of an earlier reservation.
  void release(uint64_t bytes) { used_ -= bytes; }

  /// Bytes reserved now.
  uint64_t used() const { return used_; }
  /// Whether a reservation was refused: the run must end with the memory-limit Error.
  bool refused() const { return refused_; }
  /// Bytes the first refused reservation would have brought the run to.
  uint64_t refused_total() const { return refused_total_; }
  /// What the first refused reservation was for.
  const std::string& refused_what() const { return refused_what_; }

 private:
  uint64_t limit_;
  uint64_t used_ = 0;
  bool refused_ = false;
  uint64_t refused_total_ = 0;
  std::string refused_what_;
};

}  // namespace vyre::reference
