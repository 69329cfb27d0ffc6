// Queued, built and cached kernels.
#include "backends/opencl/kernel_cache.h"

#include <algorithm>

#include "backends/opencl/program_batch.h"

namespace vyre::opencl {
namespace {

/// No program's id: what a builder, which waits for none, asks build_group for.
constexpr uint64_t kNoProgramId = ~uint64_t{0};

}  // namespace

KernelCache::~KernelCache() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void KernelCache::prepare(uint64_t id, const std::string& source) {
  {
    std::lock_guard lock(mutex_);
    if (kernels_.count(id) != 0 || in_flight_.count(id) != 0 || pending_.count(id) != 0) return;
    pending_.emplace(id, source);
    if (threads_.empty()) {
      for (unsigned t = 0; t < std::max(threads_wanted_, 1u); ++t) {
        threads_.emplace_back([this] { builder_loop(); });
      }
    }
  }
  changed_.notify_all();
}

Result<std::shared_ptr<const BuiltKernel>> KernelCache::get(uint64_t id, const std::string& source,
                                                            bool& built) {
  built = false;
  std::vector<std::pair<uint64_t, std::string>> group;
  {
    std::unique_lock lock(mutex_);
    // A builder has it in hand: wait for its result rather than build twice.
    changed_.wait(lock, [&] { return in_flight_.count(id) == 0; });
    if (auto it = kernels_.find(id); it != kernels_.end()) {
      order_.splice(order_.begin(), order_, it->second.second);
      return it->second.first;
    }
    // Queued or unknown: built here, with whatever else is queued.
    pending_.erase(id);
    in_flight_.insert(id);
    group.emplace_back(id, source);
    take_pending(group, kMaxKernelsPerProgram);
  }
  built = true;
  return build_group(group, id);
}

void KernelCache::take_pending(std::vector<std::pair<uint64_t, std::string>>& group, size_t most) {
  while (group.size() < most && !pending_.empty()) {
    auto first = pending_.begin();
    in_flight_.insert(first->first);
    group.emplace_back(first->first, std::move(first->second));
    pending_.erase(first);
  }
}

Result<std::shared_ptr<const BuiltKernel>> KernelCache::build_group(
    const std::vector<std::pair<uint64_t, std::string>>& group, uint64_t wanted) {
  std::vector<std::string_view> sources;
  for (const auto& [id, source] : group) sources.push_back(source);
  // The driver's compiler runs outside the lock.
  std::vector<Result<std::shared_ptr<const BuiltKernel>>> results = builder_->build(sources);
  Result<std::shared_ptr<const BuiltKernel>> mine = Error{"not built"};
  {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < group.size(); ++i) {
      const uint64_t id = group[i].first;
      in_flight_.erase(id);
      if (results[i].ok()) insert_locked(id, *results[i]);
      if (id == wanted) mine = std::move(results[i]);
    }
  }
  changed_.notify_all();
  return mine;
}

void KernelCache::insert_locked(uint64_t id, std::shared_ptr<const BuiltKernel> kernel) {
  if (kernels_.count(id) != 0) return;
  if (kernels_.size() >= capacity_ && !order_.empty()) {
    kernels_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(id);
  kernels_.emplace(id, std::make_pair(std::move(kernel), order_.begin()));
}

void KernelCache::builder_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    ++idle_builders_;
    changed_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    --idle_builders_;
    if (stopping_) return;
    // An even share of what is queued among the builders free to take it:
    // big groups when builds lag (one driver call for many kernels), every
    // builder busy when many wait.
    const size_t share = (pending_.size() + idle_builders_) / (idle_builders_ + 1);
    std::vector<std::pair<uint64_t, std::string>> group;
    take_pending(group, std::clamp<size_t>(share, 1, kMaxKernelsPerProgram));
    lock.unlock();
    // A failed kernel is left for its dispatch to build again and report.
    (void)build_group(group, kNoProgramId);
    lock.lock();
  }
}

}  // namespace vyre::opencl
