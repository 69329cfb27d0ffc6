// The backend a certification run's cases start on, and who may use it when.
// A device loss, hang or crash ends every case in flight on that device or
// process, the one that caused it and the lanes beside it alike. So a case
// that ended so is retried on a fresh backend where no other case can take
// it down again, and a retry that fails the same way replaces that backend
// before anything else runs on it. The case that caused it then fails twice
// and the cases it took down with it pass on their retry, instead of each
// retry failing again beside the culprit's retry (seen on an H100: one
// program's device loss failed three innocent cases of a fuzz batch).
//
// - A device loss or a hang may leave the device itself unusable, so its
//   retry runs alone on a fresh backend that the rest of the run then uses:
//   the other lanes wait.
// - A crash ends one process (the isolated backend's child, which starts
//   afresh on its next call), not the device. Its retries run one at a time
//   on a backend of their own, in a process of their own, while the lanes
//   go on: on an H200 the lanes' wait for a compiler crash's retries cost a
//   warm run 2-5 s.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/backend.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// The backend cases start on: the caller's, until a retry opens a fresh
/// one, which the rest of the run then uses (a lane still running on the old
/// one keeps it until its case ends).
class RunBackends {
 public:
  using Opener = std::function<Result<std::unique_ptr<Backend>>()>;

  RunBackends(Backend& first, Opener reopen) : current_(&first), reopen_(std::move(reopen)) {}

  /// Whether a case may be retried on a fresh backend.
  bool can_reopen() const { return static_cast<bool>(reopen_); }

  /// The backend a case starting now runs on.
  Backend& current();

  /// A fresh backend in place of `on` after a device loss, hang or crash:
  /// opened and probed once, by the first lane to need it; the lanes that
  /// follow take it (unless it was lost too, see below). An Error says why
  /// none is usable.
  Result<Backend*> after_loss(Backend& on);

  /// The backend a crashed case is retried on, beside the lanes: opened and
  /// probed on first need, and again after a retry on it failed the same way
  /// (lost_again). An Error says why none is usable.
  Result<Backend*> for_crash_retry();

  /// `on` lost its device again in a retry: the next case or retry opens a
  /// fresh backend instead of starting on it.
  void lost_again(Backend& on);

  /// A case's use of the backend (an attempt, a reduction), beside the other
  /// lanes' uses; it waits while a retry runs or waits to run.
  class SharedUse {
   public:
    explicit SharedUse(RunBackends& b);
    ~SharedUse();
    SharedUse(const SharedUse&) = delete;
    SharedUse& operator=(const SharedUse&) = delete;

   private:
    RunBackends& b_;
  };

  /// A crashed case's retry (and the reduction of what it found) on
  /// for_crash_retry(): one at a time, beside the lanes' shared uses.
  class CrashRetryUse {
   public:
    explicit CrashRetryUse(RunBackends& b) : one_at_a_time_(b.crash_retries_), use_(b) {}

   private:
    std::lock_guard<std::mutex> one_at_a_time_;
    SharedUse use_;
  };

  /// A retry's use after a device loss or hang (and the reduction of what it
  /// found): alone, once the uses in flight have ended; uses that start
  /// later wait for it.
  class SoleUse {
   public:
    explicit SoleUse(RunBackends& b);
    ~SoleUse();
    SoleUse(const SoleUse&) = delete;
    SoleUse& operator=(const SoleUse&) = delete;

   private:
    RunBackends& b_;
  };

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  Backend* current_;
  std::vector<std::unique_ptr<Backend>> reopened_;
  const Opener reopen_;
  /// The current backend lost its device in a retry (lost_again).
  bool stale_ = false;
  /// Crashed cases' retries: where they run, and whether it failed one.
  Backend* crash_retry_ = nullptr;
  bool crash_retry_stale_ = false;
  std::mutex crash_retries_;

  /// Opens and probes a fresh backend, kept for the run; mutex_ held.
  Result<Backend*> open_fresh();
  /// A fresh backend as the current one; mutex_ held.
  Result<Backend*> replace_current();
  /// Shared uses in flight; sole uses waiting; whether one runs.
  unsigned shared_ = 0;
  unsigned sole_waiting_ = 0;
  bool sole_running_ = false;
};

}  // namespace vyre::certify
