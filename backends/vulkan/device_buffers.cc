// The buffer pool and the buffers of one dispatch.
#include "backends/vulkan/device_buffers.h"

#include <algorithm>
#include <bit>

namespace vyre::vulkan {
namespace {

/// Every pooled buffer's usage, so that any free buffer fits any request.
constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

/// Sizes are rounded up to a class so that buffers of similar size are
/// shared: a power of two up to 1 MiB, a whole number of MiB above.
VkDeviceSize size_class(VkDeviceSize size) {
  constexpr VkDeviceSize kMiB = VkDeviceSize{1} << 20;
  if (size > kMiB) return (size + kMiB - 1) / kMiB * kMiB;
  return std::bit_ceil(std::max<VkDeviceSize>(size, 256));
}

}  // namespace

BufferPool::~BufferPool() {
  if (device_.abandoned()) return;
  for (const auto& [key, buffer] : free_) destroy(buffer);
}

Result<DeviceBuffer> BufferPool::acquire(VkDeviceSize size, MemoryPlace place,
                                         bool& out_of_memory) {
  const VkDeviceSize rounded = size_class(size);
  {
    std::lock_guard lock(mutex_);
    if (auto it = free_.find({place, rounded}); it != free_.end()) {
      DeviceBuffer buffer = it->second;
      free_.erase(it);
      kept_bytes_ -= buffer.size;
      return buffer;
    }
  }
  return create(rounded, place, out_of_memory);
}

void BufferPool::release(const DeviceBuffer& buffer, MemoryPlace place) {
  {
    std::lock_guard lock(mutex_);
    if (kept_bytes_ + buffer.size <= max_kept_bytes_) {
      free_.insert({{place, buffer.size}, buffer});
      kept_bytes_ += buffer.size;
      return;
    }
  }
  destroy(buffer);
}

Result<DeviceBuffer> BufferPool::create(VkDeviceSize size, MemoryPlace place,
                                        bool& out_of_memory) const {
  const VulkanApi& vk = device_.api();
  const VkDevice dev = device_.device();
  DeviceBuffer b;
  b.size = size;
  // Frees what was created when a later step fails.
  struct Cleanup {
    const BufferPool* pool;
    const DeviceBuffer* buffer;
    bool armed = true;
    ~Cleanup() {
      if (armed) pool->destroy(*buffer);
    }
  } cleanup{this, &b};
  const auto failed = [&](const std::string& what, VkResult r) {
    out_of_memory = r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY;
    return vk_error(what, r);
  };
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = kUsage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (VkResult r = vk.vkCreateBuffer(dev, &info, nullptr, &b.buffer); r != VK_SUCCESS) {
    return failed("vkCreateBuffer of " + std::to_string(size) + " bytes", r);
  }
  VkMemoryRequirements needs{};
  vk.vkGetBufferMemoryRequirements(dev, b.buffer, &needs);
  constexpr VkMemoryPropertyFlags kMapped =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VulkanInstance& instance = device_.instance();
  std::optional<uint32_t> type;
  switch (place) {
    case MemoryPlace::HostVisible:
      type =
          instance.memory_type(needs.memoryTypeBits, kMapped, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      break;
    case MemoryPlace::DeviceLocal:
      type = instance.memory_type(needs.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      break;
    case MemoryPlace::Staging:
      type =
          instance.memory_type(needs.memoryTypeBits, kMapped, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
      break;
  }
  if (!type) return Error{"the device has no memory type usable for a buffer"};
  VkMemoryAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  alloc.allocationSize = needs.size;
  alloc.memoryTypeIndex = *type;
  if (VkResult r = vk.vkAllocateMemory(dev, &alloc, nullptr, &b.memory); r != VK_SUCCESS) {
    return failed("vkAllocateMemory of " + std::to_string(needs.size) + " bytes", r);
  }
  if (VkResult r = vk.vkBindBufferMemory(dev, b.buffer, b.memory, 0); r != VK_SUCCESS) {
    return failed("vkBindBufferMemory", r);
  }
  if (place != MemoryPlace::DeviceLocal) {
    void* mapped = nullptr;
    if (VkResult r = vk.vkMapMemory(dev, b.memory, 0, VK_WHOLE_SIZE, 0, &mapped); r != VK_SUCCESS) {
      return failed("vkMapMemory", r);
    }
    b.mapped = static_cast<uint8_t*>(mapped);
  }
  cleanup.armed = false;
  return b;
}

void BufferPool::destroy(const DeviceBuffer& b) const {
  const VulkanApi& vk = device_.api();
  // Freeing the memory also unmaps it.
  if (b.buffer != VK_NULL_HANDLE) vk.vkDestroyBuffer(device_.device(), b.buffer, nullptr);
  if (b.memory != VK_NULL_HANDLE) vk.vkFreeMemory(device_.device(), b.memory, nullptr);
}

DispatchBuffers::~DispatchBuffers() {
  if (pool_.device().abandoned()) return;
  for (const auto& [buffer, place] : held_) pool_.release(buffer, place);
}

Result<DeviceBuffer*> DispatchBuffers::create(VkDeviceSize size, MemoryPlace place) {
  Result<DeviceBuffer> buffer = pool_.acquire(size, place, out_of_memory_);
  if (!buffer.ok()) return buffer.error();
  held_.emplace_back(*buffer, place);
  return &held_.back().first;
}

}  // namespace vyre::vulkan
