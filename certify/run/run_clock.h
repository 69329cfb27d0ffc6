// The run's one clock: started when the backend is opened; every phase of
// the report (open, catalog, compile, dispatch, reference) and the wall time
// are read from the same steady clock.
#pragma once

#include <chrono>
#include <cstdint>

namespace vyre::certify {

/// A steady clock started at construction.
class RunClock {
 public:
  using Clock = std::chrono::steady_clock;
  /// Microseconds since the clock started.
  uint64_t elapsed_us() const { return micros_since(start_); }
  /// Microseconds since `start`, an earlier reading of Clock::now().
  static uint64_t micros_since(Clock::time_point start) {
    return static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count());
  }

 private:
  Clock::time_point start_ = Clock::now();
};

}  // namespace vyre::certify
