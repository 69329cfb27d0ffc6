// Queued, built and cached kernels.
#include "backends/opencl/kernel_cache.h"

#include <algorithm>
#include <chrono>

#include "backends/opencl/program_batch.h"

namespace vyre::opencl {
namespace {

/// A burst of prepares is over once none came for this long...
constexpr std::chrono::milliseconds kBurstGap{5};
/// ...or after this long in all: a build never waits longer for company.
constexpr std::chrono::milliseconds kMostGathering{50};

}  // namespace

KernelCache::~KernelCache() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void KernelCache::prepare(const std::string& source) {
  {
    std::lock_guard lock(mutex_);
    if (kernels_.count(source) != 0 || in_flight_.count(source) != 0 ||
        queued_.count(source) != 0) {
      return;
    }
    queued_.emplace(source, next_queued_);
    pending_.emplace(next_queued_++, source);
    if (threads_.empty()) {
      for (unsigned t = 0; t < std::max(threads_wanted_, 1u); ++t) {
        threads_.emplace_back([this] { builder_loop(); });
      }
    }
  }
  changed_.notify_all();
}

Result<std::shared_ptr<const BuiltKernel>> KernelCache::get(const std::string& source,
                                                            bool& built) {
  built = false;
  std::vector<std::string> group;
  {
    std::unique_lock lock(mutex_);
    // A builder has it in hand: wait for its result rather than build twice.
    changed_.wait(lock, [&] { return in_flight_.count(source) == 0; });
    if (auto it = kernels_.find(source); it != kernels_.end()) {
      order_.splice(order_.begin(), order_, it->second.second);
      return it->second.first;
    }
    // Queued or unknown: built here, with whatever else is queued.
    if (auto queued = queued_.find(source); queued != queued_.end()) {
      pending_.erase(queued->second);
      queued_.erase(queued);
    }
    in_flight_.insert(source);
    group.push_back(source);
    take_pending(group, kMaxKernelsPerProgram);
  }
  built = true;
  return build_group(group, &group.front());
}

void KernelCache::take_pending(std::vector<std::string>& group, size_t most) {
  while (group.size() < most && !pending_.empty()) {
    auto first = pending_.begin();
    queued_.erase(first->second);
    in_flight_.insert(first->second);
    group.push_back(std::move(first->second));
    pending_.erase(first);
  }
}

Result<std::shared_ptr<const BuiltKernel>> KernelCache::build_group(
    const std::vector<std::string>& group, const std::string* wanted) {
  std::vector<std::string_view> sources(group.begin(), group.end());
  // The driver's compiler runs outside the lock.
  std::vector<Result<std::shared_ptr<const BuiltKernel>>> results = builder_->build(sources);
  Result<std::shared_ptr<const BuiltKernel>> mine = Error{"not built"};
  {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < group.size(); ++i) {
      in_flight_.erase(group[i]);
      if (results[i].ok()) insert_locked(group[i], *results[i]);
      if (&group[i] == wanted) mine = std::move(results[i]);
    }
  }
  changed_.notify_all();
  return mine;
}

void KernelCache::insert_locked(const std::string& source,
                                std::shared_ptr<const BuiltKernel> kernel) {
  if (kernels_.count(source) != 0) return;
  if (kernels_.size() >= capacity_ && !order_.empty()) {
    kernels_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(source);
  kernels_.emplace(source, std::make_pair(std::move(kernel), order_.begin()));
}

void KernelCache::gather_burst(std::unique_lock<std::mutex>& lock) {
  const auto until = std::chrono::steady_clock::now() + kMostGathering;
  size_t seen = pending_.size();
  while (seen != 0 && seen < size_t{kMaxKernelsPerProgram} * free_builders_ &&
         std::chrono::steady_clock::now() < until &&
         changed_.wait_for(lock, kBurstGap, [&] { return stopping_ || pending_.size() != seen; })) {
    if (stopping_) return;
    seen = pending_.size();
  }
}

void KernelCache::builder_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    ++free_builders_;
    changed_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    // Kernels prepared together (a block of programs compiled ahead) come
    // one prepare() at a time: waiting for the last of them builds them in
    // groups, one driver call each, instead of one kernel per builder.
    gather_burst(lock);
    --free_builders_;
    if (stopping_) return;
    if (pending_.empty()) continue;
    // An even share of what is queued among the builders free to take it
    // (big groups when builds lag, every builder busy when many wait), but
    // never fewer than fewest_per_build_ while that many wait.
    const size_t even = (pending_.size() + free_builders_) / (free_builders_ + 1);
    const size_t share = std::max(even, std::min(pending_.size(), fewest_per_build_));
    std::vector<std::string> group;
    take_pending(group, std::clamp<size_t>(share, 1, kMaxKernelsPerProgram));
    lock.unlock();
    // A failed kernel is left for its dispatch to build again and report.
    (void)build_group(group, nullptr);
    lock.lock();
  }
}

}  // namespace vyre::opencl
