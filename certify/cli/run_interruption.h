// SIGINT and SIGTERM during a certification run or a hunt: the first one
// stops the run from starting more cases, so that the cases running finish
// and a partial report (marked incomplete, listing the cases not run), or the
// hunt's findings, are still written; a second one (two seconds or more after
// the first: `timeout` delivers one signal twice) ends the process at once, as
// the signal's default action would.
#pragma once

#include <atomic>
#include <string_view>

namespace vyre::cli {

/// While alive, SIGINT and SIGTERM set signal() instead of ending the
/// process, and say on stderr that the run stops and what is still
/// `written`; another signal two seconds or more later takes its default action.
class RunInterruption {
 public:
  explicit RunInterruption(std::string_view written);
  ~RunInterruption();
  RunInterruption(const RunInterruption&) = delete;
  RunInterruption& operator=(const RunInterruption&) = delete;

  /// The number of the signal that interrupted the run; 0 while none did.
  const std::atomic<int>& signal() const;
};

/// "SIGINT", "SIGTERM", or "signal N".
const char* signal_name(int signal);

}  // namespace vyre::cli
