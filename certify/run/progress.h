// Progress of a certification run on stderr. On a terminal: one line,
// rewritten in place, naming the case being run with the elapsed time of the
// run and of the case, redrawn every second so a long case shows it is still
// going. Elsewhere (a log, CI): a plain line per tenth of the cases. Cases
// that did not pass get a line of their own either way. Disabled (--quiet):
// nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>

#include "certify/report/report.h"

namespace vyre::certify {

/// The progress display of one run.
class Progress {
 public:
  /// A run of `total` cases; `enabled` false shows nothing.
  Progress(size_t total, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Case `index` (0-based) starts.
  void start(size_t index, std::string_view id);
  /// The case started last has finished with `r`.
  void finish(const CaseResult& r);

 private:
  using Clock = std::chrono::steady_clock;
  void tick(std::stop_token stop);
  /// Rewrites the terminal line; the caller holds mutex_.
  void draw();
  static std::chrono::seconds seconds_since(Clock::time_point start);

  const size_t total_;
  const bool enabled_;
  const bool terminal_;
  const Clock::time_point run_start_ = Clock::now();
  std::mutex mutex_;
  size_t index_ = 0;
  std::string id_;
  Clock::time_point case_start_ = run_start_;
  /// Wakes the ticker once a second, or at once when it is asked to stop.
  std::condition_variable_any wake_;
  std::jthread ticker_;
};

/// "m:ss" (or "h:mm:ss" from an hour on) of a non-negative duration.
std::string clock_text(std::chrono::seconds elapsed);

/// The progress line shown on a terminal while case `index` (0-based) of
/// `total` runs: "[3/224] 1:05 running ID (0:56)", the run's and the case's
/// elapsed time, shortened at the front of the id to fit 79 columns.
std::string progress_line(size_t index, size_t total, std::string_view id,
                          std::chrono::seconds run_elapsed, std::chrono::seconds case_elapsed);

}  // namespace vyre::certify
