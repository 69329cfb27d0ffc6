// SIGINT and SIGTERM during a certification run: the first one stops the run
// from starting more cases, so that the cases running finish and a partial
// report (marked incomplete, listing the cases not run) is still written; a
// second one ends the process at once, as the signal's default action would.
#pragma once

#include <atomic>

namespace vyre::cli {

/// While alive, SIGINT and SIGTERM set signal() instead of ending the
/// process (once each: the next is the default action again).
class RunInterruption {
 public:
  RunInterruption();
  ~RunInterruption();
  RunInterruption(const RunInterruption&) = delete;
  RunInterruption& operator=(const RunInterruption&) = delete;

  /// The number of the signal that interrupted the run; 0 while none did.
  const std::atomic<int>& signal() const;
};

/// "SIGINT", "SIGTERM", or "signal N".
const char* signal_name(int signal);

}  // namespace vyre::cli
