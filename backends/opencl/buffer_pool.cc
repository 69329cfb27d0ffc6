// The buffer pool.
#include "backends/opencl/buffer_pool.h"

#include <algorithm>
#include <bit>

namespace vyre::opencl {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

}  // namespace

uint64_t size_class(uint64_t bytes, uint64_t max_alloc) {
  const uint64_t rounded = bytes <= kMiB ? std::bit_ceil(std::max<uint64_t>(bytes, 16))
                                         : (bytes + kMiB - 1) / kMiB * kMiB;
  return std::max(bytes, std::min(rounded, max_alloc));
}

BufferPool::~BufferPool() {
  if (queue_.abandoned()) return;
  for (const auto& [capacity, buffer] : free_) api_.clReleaseMemObject(buffer);
}

cl_mem BufferPool::take(uint64_t bytes, uint64_t& capacity, cl_int& error) {
  capacity = size_class(bytes, max_alloc_);
  if (auto it = free_.find(capacity); it != free_.end()) {
    cl_mem buffer = it->second;
    free_.erase(it);
    kept_bytes_ -= capacity;
    error = CL_SUCCESS;
    return buffer;
  }
  cl_mem buffer =
      api_.clCreateBuffer(queue_.context(), CL_MEM_READ_WRITE, capacity, nullptr, &error);
  if (buffer == nullptr && !free_.empty()) {
    // Out of memory, perhaps because of what the pool keeps: free it, try again.
    for (const auto& [kept, b] : free_) api_.clReleaseMemObject(b);
    free_.clear();
    kept_bytes_ = 0;
    buffer = api_.clCreateBuffer(queue_.context(), CL_MEM_READ_WRITE, capacity, nullptr, &error);
  }
  return buffer;
}

void BufferPool::give(cl_mem buffer, uint64_t capacity) {
  // Keep the newest; release the largest kept ones while over the budget.
  free_.emplace(capacity, buffer);
  kept_bytes_ += capacity;
  while (kept_bytes_ > max_kept_bytes_ && !free_.empty()) {
    auto largest = std::prev(free_.end());
    api_.clReleaseMemObject(largest->second);
    kept_bytes_ -= largest->first;
    free_.erase(largest);
  }
}

DispatchBuffers::~DispatchBuffers() {
  if (queue_.abandoned()) return;
  for (const auto& [buffer, capacity] : held_) pool_.give(buffer, capacity);
}

cl_mem DispatchBuffers::take(uint64_t bytes, cl_int& error) {
  uint64_t capacity = 0;
  cl_mem buffer = pool_.take(bytes, capacity, error);
  if (buffer != nullptr) held_.emplace_back(buffer, capacity);
  return buffer;
}

}  // namespace vyre::opencl
