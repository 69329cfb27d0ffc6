// Milliseconds since a steady-clock reading: the unit of every backend's
// DispatchTiming and BatchTiming.
#pragma once

#include <chrono>

namespace vyre {

/// Milliseconds from `start` to now, on the steady clock.
inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace vyre
