// Device buffers: a per-device pool that keeps them between dispatches (a
// certification run repeats each dispatch many times, and allocating and
// freeing device memory costs more than a small dispatch), and the set of
// buffers one dispatch holds.
#pragma once

#include <deque>
#include <map>
#include <mutex>
#include <utility>

#include "backends/vulkan/vulkan_device.h"

namespace vyre::vulkan {

/// One buffer and its memory; `mapped` is set for host-visible memory.
struct DeviceBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;  ///< Capacity; at least what was asked for.
  uint8_t* mapped = nullptr;
};

/// Where a buffer's memory lives.
enum class MemoryPlace : uint8_t {
  HostVisible,  ///< Mapped, coherent; device-local too where the device has such memory.
  DeviceLocal,  ///< Fastest for the device; reached by copies through a staging buffer.
  Staging,      ///< Mapped, coherent, preferably cached for fast readback.
};

/// Free buffers of one device by place and size class. Every buffer can serve
/// as storage, uniform and copy source or destination. Thread-safe: the runs
/// of a host-driven case dispatch from several threads at once.
class BufferPool {
 public:
  /// Keeps at most `max_kept_bytes` of free buffers; more are freed.
  BufferPool(const VulkanDevice& device, VkDeviceSize max_kept_bytes)
      : device_(device), max_kept_bytes_(max_kept_bytes) {}
  /// Frees every kept buffer, unless the device was abandoned.
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  /// A buffer of at least `size` bytes, reused or new. Errors name the failing
  /// call; `out_of_memory` tells an exhausted device apart.
  Result<DeviceBuffer> acquire(VkDeviceSize size, MemoryPlace place, bool& out_of_memory);
  /// Takes a buffer back for reuse.
  void release(const DeviceBuffer& buffer, MemoryPlace place);
  const VulkanDevice& device() const { return device_; }

 private:
  Result<DeviceBuffer> create(VkDeviceSize size, MemoryPlace place, bool& out_of_memory) const;
  void destroy(const DeviceBuffer& buffer) const;

  const VulkanDevice& device_;
  VkDeviceSize max_kept_bytes_;
  std::mutex mutex_;  ///< Guards kept_bytes_ and free_; creating buffers runs outside it.
  VkDeviceSize kept_bytes_ = 0;
  std::multimap<std::pair<MemoryPlace, VkDeviceSize>, DeviceBuffer> free_;
};

/// The buffers one dispatch holds, given back to the pool at its end; kept
/// out of the pool (leaked) when the device was abandoned with work in flight
/// that may still touch them.
class DispatchBuffers {
 public:
  explicit DispatchBuffers(BufferPool& pool) : pool_(pool) {}
  ~DispatchBuffers();
  DispatchBuffers(const DispatchBuffers&) = delete;
  DispatchBuffers& operator=(const DispatchBuffers&) = delete;

  /// A buffer of at least `size` bytes for this dispatch.
  Result<DeviceBuffer*> create(VkDeviceSize size, MemoryPlace place);
  bool out_of_memory() const { return out_of_memory_; }

 private:
  BufferPool& pool_;
  std::deque<std::pair<DeviceBuffer, MemoryPlace>> held_;  // A deque keeps pointers valid.
  bool out_of_memory_ = false;
};

}  // namespace vyre::vulkan
