#include "certify/run/reference_pool.h"

#include <algorithm>

namespace vyre::certify {

ReferencePool::ReferencePool(const std::vector<const SuiteCase*>& cases,
                             const CaseRunOptions& options, unsigned threads, size_t lookahead)
    : cases_(cases),
      options_(options),
      lookahead_(std::max<size_t>(lookahead, 1)),
      done_(cases.size()) {
  for (unsigned t = 0; t < std::max(threads, 1u); ++t) workers_.emplace_back([this] { work(); });
}

ReferencePool::~ReferencePool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : workers_) t.join();
}

CaseExpectations ReferencePool::take(size_t index) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return done_[index].has_value(); });
  CaseExpectations out = std::move(*done_[index]);
  done_[index].reset();
  taken_ = index + 1;
  lock.unlock();
  // Room for one more case ahead.
  changed_.notify_all();
  return out;
}

void ReferencePool::work() {
  for (;;) {
    size_t index = 0;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(
          lock, [&] { return stopping_ || next_ >= cases_.size() || next_ < taken_ + lookahead_; });
      if (stopping_ || next_ >= cases_.size()) return;
      index = next_++;
    }
    CaseExpectations e = compute_expectations(*cases_[index], options_);
    {
      std::lock_guard lock(mutex_);
      done_[index] = std::move(e);
    }
    changed_.notify_all();
  }
}

}  // namespace vyre::certify
