// The buffer pool.
#include "backends/opencl/buffer_pool.h"

#include <algorithm>
#include <bit>
#include <cstring>

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
  for (const auto& [capacity, kept] : free_) api_.clReleaseMemObject(kept.buffer);
}

void BufferPool::forget(Kept& kept) {
  if (kept.content) remembered_bytes_ -= kept.content->size();
  kept.content.reset();
}

cl_mem BufferPool::take(uint64_t bytes, uint64_t& capacity, cl_int& error) {
  capacity = size_class(bytes, max_alloc_);
  // A buffer that remembers nothing first, so remembered contents last.
  auto [first, last] = free_.equal_range(capacity);
  auto it = std::find_if(first, last, [](const auto& kept) { return !kept.second.content; });
  if (it == last) it = first;
  if (it != last) {
    forget(it->second);
    cl_mem buffer = it->second.buffer;
    free_.erase(it);
    kept_bytes_ -= capacity;
    error = CL_SUCCESS;
    return buffer;
  }
  cl_mem buffer =
      api_.clCreateBuffer(queue_.context(), CL_MEM_READ_WRITE, capacity, nullptr, &error);
  if (buffer == nullptr && !free_.empty()) {
    // Out of memory, perhaps because of what the pool keeps: free it, try again.
    for (const auto& [size, kept] : free_) api_.clReleaseMemObject(kept.buffer);
    releases_ += free_.size();
    free_.clear();
    kept_bytes_ = 0;
    remembered_bytes_ = 0;
    buffer = api_.clCreateBuffer(queue_.context(), CL_MEM_READ_WRITE, capacity, nullptr, &error);
  }
  return buffer;
}

cl_mem BufferPool::take_holding(const ByteBuffer& host, uint64_t device_bytes, uint64_t& capacity,
                                std::optional<ByteBuffer>& content) {
  capacity = size_class(device_bytes, max_alloc_);
  auto [first, last] = free_.equal_range(capacity);
  auto it = std::find_if(first, last, [&](const auto& kept) {
    return kept.second.content && *kept.second.content == host;
  });
  if (it == last) return nullptr;
  remembered_bytes_ -= it->second.content->size();
  content = std::move(it->second.content);
  cl_mem buffer = it->second.buffer;
  free_.erase(it);
  kept_bytes_ -= capacity;
  return buffer;
}

cl_mem BufferPool::take_nearest(const ByteBuffer& host, uint64_t device_bytes, size_t max_words,
                                uint64_t& capacity, std::optional<ByteBuffer>& content,
                                std::vector<uint64_t>& differing) {
  capacity = size_class(device_bytes, max_alloc_);
  if (host.size() % 4 != 0) return nullptr;
  auto [first, last] = free_.equal_range(capacity);
  for (auto it = first; it != last; ++it) {
    const std::optional<ByteBuffer>& held = it->second.content;
    if (!held || held->size() != host.size()) continue;
    differing.clear();
    for (uint64_t word = 0; word < host.size() / 4 && differing.size() <= max_words; ++word) {
      if (std::memcmp(held->data() + word * 4, host.data() + word * 4, 4) != 0) {
        differing.push_back(word);
      }
    }
    if (differing.size() > max_words) continue;
    remembered_bytes_ -= held->size();
    content = std::move(it->second.content);
    cl_mem buffer = it->second.buffer;
    free_.erase(it);
    kept_bytes_ -= capacity;
    return buffer;
  }
  differing.clear();
  return nullptr;
}

void BufferPool::give(cl_mem buffer, uint64_t capacity, std::optional<ByteBuffer> content) {
  if (content && content->size() > kMaxRememberedBytes) content.reset();
  if (content) remembered_bytes_ += content->size();
  free_.emplace(capacity, Kept{buffer, std::move(content)});
  kept_bytes_ += capacity;
  trim();
}

void BufferPool::trim() {
  // Keep the newest; release the largest kept ones while over the budget.
  while (kept_bytes_ > max_kept_bytes_ && !free_.empty()) {
    auto largest = std::prev(free_.end());
    forget(largest->second);
    api_.clReleaseMemObject(largest->second.buffer);
    ++releases_;
    kept_bytes_ -= largest->first;
    free_.erase(largest);
  }
  // Host memory for contents: forget the largest buffers' first.
  for (auto it = free_.rbegin(); remembered_bytes_ > kMaxRememberedTotal && it != free_.rend();
       ++it) {
    forget(it->second);
  }
}

DispatchBuffers::~DispatchBuffers() {
  if (queue_.abandoned()) return;
  for (Held& held : held_) {
    if (!held.confirmed) held.content.reset();
    pool_.give(held.buffer, held.capacity, std::move(held.content));
  }
}

cl_mem DispatchBuffers::take(uint64_t bytes, cl_int& error) {
  uint64_t capacity = 0;
  cl_mem buffer = pool_.take(bytes, capacity, error);
  if (buffer != nullptr) held_.push_back({buffer, capacity, std::nullopt});
  return buffer;
}

cl_mem DispatchBuffers::take_holding(const ByteBuffer& host, uint64_t device_bytes) {
  uint64_t capacity = 0;
  std::optional<ByteBuffer> content;
  cl_mem buffer = pool_.take_holding(host, device_bytes, capacity, content);
  if (buffer != nullptr) held_.push_back({buffer, capacity, std::move(content)});
  return buffer;
}

cl_mem DispatchBuffers::take_nearest(const ByteBuffer& host, uint64_t device_bytes,
                                     size_t max_words, std::vector<uint64_t>& differing) {
  uint64_t capacity = 0;
  std::optional<ByteBuffer> content;
  cl_mem buffer = pool_.take_nearest(host, device_bytes, max_words, capacity, content, differing);
  if (buffer != nullptr) held_.push_back({buffer, capacity, std::move(content)});
  return buffer;
}

void DispatchBuffers::remember(cl_mem buffer, ByteBuffer content) {
  for (Held& held : held_) {
    if (held.buffer != buffer) continue;
    held.content = std::move(content);
    held.confirmed = true;
  }
}

void DispatchBuffers::still_holds(cl_mem buffer) {
  for (Held& held : held_) {
    if (held.buffer == buffer) held.confirmed = held.content.has_value();
  }
}

}  // namespace vyre::opencl
