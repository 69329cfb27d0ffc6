// The reference off the critical path: the expectations of the run's cases
// (each variant interpreted once) are computed on worker threads, in case
// order and a bounded distance ahead of the case the backend is running, so
// the interpreter's work overlaps the device's and uses every host core.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "certify/run/case_expectations.h"

namespace vyre::certify {

/// Computes compute_expectations() for `cases` on `threads` workers.
class ReferencePool {
 public:
  /// Starts the workers; `cases` and `options` must outlive the pool.
  /// `lookahead` bounds how many cases past the one being taken may be
  /// computed and held (their outputs are held in memory until taken).
  ReferencePool(const std::vector<const SuiteCase*>& cases, const CaseRunOptions& options,
                unsigned threads, size_t lookahead);
  ~ReferencePool();
  ReferencePool(const ReferencePool&) = delete;
  ReferencePool& operator=(const ReferencePool&) = delete;

  /// The expectations of case `index`, waiting for them if needed. Cases
  /// are taken in order, each once.
  CaseExpectations take(size_t index);

 private:
  void work();

  const std::vector<const SuiteCase*>& cases_;
  const CaseRunOptions& options_;
  const size_t lookahead_;
  std::mutex mutex_;
  std::condition_variable changed_;
  /// The next case a worker starts on, and the case the run takes next.
  size_t next_ = 0;
  size_t taken_ = 0;
  bool stopping_ = false;
  std::vector<std::optional<CaseExpectations>> done_;
  std::vector<std::thread> workers_;
};

}  // namespace vyre::certify
