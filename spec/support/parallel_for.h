// One parallel loop for the host work the suite spreads over cores (random
// programs, runs of a case, the certification's case lanes, the reference
// backend's runs), so the taking of indices, the stop and the joining are
// written once.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace vyre {

/// Host threads worth using: the cores the OS reports, at least 1.
inline unsigned host_threads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Calls body(i) for each i in 0..count-1 on up to `threads` threads (this
/// one among them; never more than `count`), each taking the next index in
/// order, and returns once every call has returned. Once a call returns
/// false, no thread takes another index (calls under way finish). A call that
/// throws stops the taking too, and the first exception is rethrown here.
template <typename Body>
void parallel_for(size_t count, unsigned threads, Body&& body) {
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex thrown_mutex;
  std::exception_ptr thrown;
  const auto worker = [&] {
    try {
      for (size_t i = next.fetch_add(1); i < count && !stop; i = next.fetch_add(1)) {
        if (!body(i)) stop = true;
      }
    } catch (...) {
      stop = true;
      std::lock_guard lock(thrown_mutex);
      if (!thrown) thrown = std::current_exception();
    }
  };
  const size_t helpers = std::min<size_t>(std::max(threads, 1u), std::max<size_t>(count, 1)) - 1;
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  for (size_t t = 0; t < helpers; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (thrown) std::rethrow_exception(thrown);
}

}  // namespace vyre
