// The Vulkan instance with its chosen physical device, and the logical device
// the backend submits to (recreated after a hang or a device loss).
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "backends/backend.h"
#include "backends/vulkan/dispatch_checks.h"
#include "backends/vulkan/vulkan_api.h"

namespace vyre::vulkan {

/// A Vulkan instance and the physical device the options select.
class VulkanInstance {
 public:
  /// Opens the loader, creates an instance (Vulkan 1.1) and picks the device:
  /// `selector` is an index, a case-insensitive name substring, or empty for
  /// the first device with a compute queue. Errors name what is missing and,
  /// for a selector that matches nothing, list the devices.
  static Result<std::unique_ptr<VulkanInstance>> create(const std::string& selector);
  ~VulkanInstance();
  VulkanInstance(const VulkanInstance&) = delete;
  VulkanInstance& operator=(const VulkanInstance&) = delete;

  const VulkanApi& api() const { return api_; }
  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_; }
  uint32_t queue_family() const { return queue_family_; }
  const Capabilities& capabilities() const { return capabilities_; }
  const DeviceLimits& limits() const { return limits_; }
  /// True when device-local memory is also host-visible and coherent on a
  /// CPU or integrated device, so buffers need no staging copies.
  bool unified_memory() const { return unified_memory_; }
  /// A memory type allowed by `type_bits` with every `required` property,
  /// preferring one that also has every `preferred` property.
  std::optional<uint32_t> memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                                      VkMemoryPropertyFlags preferred) const;
  /// Keeps the instance alive at destruction: a device with hung work was
  /// abandoned and still belongs to it.
  void leak_on_destruction() { leak_ = true; }

 private:
  VulkanInstance() = default;
  Result<Ok> choose_device(const std::string& selector);
  void describe_device(const VkPhysicalDeviceProperties& props);

  VulkanApi api_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkPhysicalDeviceMemoryProperties memory_{};
  Capabilities capabilities_;
  DeviceLimits limits_;
  bool unified_memory_ = false;
  bool leak_ = false;
};

/// How a submission ended.
struct SubmitOutcome {
  Status status = Status::Error;  ///< Ok, Timeout, DeviceLost or Error.
  std::string message;
};

/// A logical device with one compute queue and, for each thread that records
/// on it, a command buffer and a fence of that thread's own: the runs of a
/// host-driven case dispatch from several threads at once, and only the
/// queue submission itself is serialised.
class VulkanDevice {
 public:
  static Result<std::unique_ptr<VulkanDevice>> create(const VulkanInstance& instance);
  /// Waits for the device to go idle and destroys it, unless abandoned.
  ~VulkanDevice();
  VulkanDevice(const VulkanDevice&) = delete;
  VulkanDevice& operator=(const VulkanDevice&) = delete;

  const VulkanApi& api() const { return instance_.api(); }
  const VulkanInstance& instance() const { return instance_; }
  VkDevice device() const { return device_; }

  /// Resets the calling thread's command buffer and starts recording into it.
  Result<VkCommandBuffer> begin();
  /// Ends the calling thread's recording, submits it and waits for its fence
  /// up to `timeout`.
  SubmitOutcome submit_and_wait(std::chrono::milliseconds timeout);

  /// Never destroy this device: work on it is hung, and destroying a device
  /// with work in flight is undefined (and would block on some drivers). Its
  /// objects are leaked on purpose; the backend creates a new device.
  void abandon() { abandoned_ = true; }
  bool abandoned() const { return abandoned_; }

 private:
  /// One thread's command pool, its command buffer and fence.
  struct CommandSlot {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
  };

  explicit VulkanDevice(const VulkanInstance& instance) : instance_(instance) {}
  /// The calling thread's slot, created on its first recording.
  Result<CommandSlot*> slot_of_this_thread();

  const VulkanInstance& instance_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex queue_mutex_;  ///< vkQueueSubmit needs the queue held by one thread.
  std::mutex slots_mutex_;  ///< Guards slots_ (a map: a slot's address never moves).
  std::map<std::thread::id, CommandSlot> slots_;
  // Atomic: prepare() reads it on the certifier's compile workers.
  std::atomic<bool> abandoned_{false};
};

/// "what failed: VK_ERROR_..." for a Vulkan call that did not return VK_SUCCESS.
Error vk_error(const std::string& what, VkResult result);

}  // namespace vyre::vulkan
