#include "certify/run/run_backends.h"

namespace vyre::certify {

Backend& RunBackends::current() {
  std::lock_guard lock(mutex_);
  // Past an error the case starts on the old backend, fails, and its retry
  // tries to open one again, reporting why it cannot.
  if (stale_) (void)replace_current();
  return *current_;
}

Result<Backend*> RunBackends::after_loss(Backend& on) {
  std::lock_guard lock(mutex_);
  if (current_ != &on && !stale_) return current_;
  return replace_current();
}

Result<Backend*> RunBackends::replace_current() {
  stale_ = false;
  auto fresh = open_fresh();
  if (fresh) current_ = *fresh;
  return fresh;
}

Result<Backend*> RunBackends::for_crash_retry() {
  std::lock_guard lock(mutex_);
  if (crash_retry_ && !crash_retry_stale_) return crash_retry_;
  crash_retry_stale_ = false;
  auto fresh = open_fresh();
  if (fresh) crash_retry_ = *fresh;
  return fresh;
}

void RunBackends::lost_again(Backend& on) {
  std::lock_guard lock(mutex_);
  if (current_ == &on) stale_ = true;
  if (crash_retry_ == &on) crash_retry_stale_ = true;
}

Result<Backend*> RunBackends::open_fresh() {
  auto opened = reopen_();
  if (!opened) return opened.error();
  const Capabilities caps = (*opened)->probe();
  if (!caps.unavailable.empty()) return Error{caps.unavailable};
  reopened_.push_back(std::move(opened).value());
  return reopened_.back().get();
}

RunBackends::SharedUse::SharedUse(RunBackends& b) : b_(b) {
  std::unique_lock lock(b_.mutex_);
  // Waiting retries go first, or lanes starting case after case would keep
  // one waiting for as long as the run lasts.
  b_.changed_.wait(lock, [&] { return b_.sole_waiting_ == 0 && !b_.sole_running_; });
  ++b_.shared_;
}

RunBackends::SharedUse::~SharedUse() {
  {
    std::lock_guard lock(b_.mutex_);
    --b_.shared_;
  }
  b_.changed_.notify_all();
}

RunBackends::SoleUse::SoleUse(RunBackends& b) : b_(b) {
  std::unique_lock lock(b_.mutex_);
  ++b_.sole_waiting_;
  b_.changed_.wait(lock, [&] { return b_.shared_ == 0 && !b_.sole_running_; });
  --b_.sole_waiting_;
  b_.sole_running_ = true;
}

RunBackends::SoleUse::~SoleUse() {
  {
    std::lock_guard lock(b_.mutex_);
    b_.sole_running_ = false;
  }
  b_.changed_.notify_all();
}

}  // namespace vyre::certify
