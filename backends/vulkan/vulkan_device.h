// The Vulkan instance with its chosen physical device, and the logical device
// the backend submits to (recreated after a hang or a device loss).
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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
  /// True for a device that runs on the host's CPU (lavapipe).
  bool cpu_device() const { return cpu_device_; }
  /// Valid bits of the compute queue's timestamps (0: it writes none, and
  /// no device time is measured).
  uint32_t timestamp_valid_bits() const { return timestamp_valid_bits_; }
  /// Nanoseconds per timestamp tick.
  double timestamp_period_ns() const { return timestamp_period_ns_; }
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
  bool cpu_device_ = false;
  uint32_t timestamp_valid_bits_ = 0;
  double timestamp_period_ns_ = 0;
  bool leak_ = false;
};

/// How a submission ended.
struct SubmitOutcome {
  Status status = Status::Error;  ///< Ok, Timeout, DeviceLost or Error.
  std::string message;
  /// When Ok: the device's own time from the first to the last command of
  /// the submission (timestamp queries), in milliseconds; nullopt where the
  /// queue has no timestamps or their results could not be read.
  std::optional<double> device_ms;
};

/// A logical device with one compute queue and command buffers, each with a
/// fence of its own, leased to one recording at a time: the runs of a
/// host-driven case dispatch from several threads at once, and only the
/// queue submission itself is serialised. There are as many command buffers
/// as recordings were ever under way at once.
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

  /// Leases a command buffer to the calling thread until its
  /// submit_and_wait(), resets it and starts recording into it. `timed`:
  /// bracket the recording with timestamps (where the queue writes them),
  /// so that the submission reports its device time.
  Result<VkCommandBuffer> begin(bool timed = true);
  /// Ends the calling thread's recording, submits it, waits for its fence up
  /// to `timeout` and gives the command buffer back (kept out after a
  /// timeout: the hung work may still use it).
  SubmitOutcome submit_and_wait(std::chrono::milliseconds timeout);
  /// Command buffers made so far: the most recordings under way at once.
  size_t command_buffers() const;

  /// Never destroy this device: work on it is hung, and destroying a device
  /// with work in flight is undefined (and would block on some drivers). Its
  /// objects are leaked on purpose; the backend creates a new device.
  void abandon() { abandoned_ = true; }
  bool abandoned() const { return abandoned_; }

 private:
  /// A command pool, its one command buffer, a fence and, where the queue
  /// writes timestamps, a pool of two: the recording's start and end.
  struct CommandSlot {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool timestamps = VK_NULL_HANDLE;
    bool timed = false;  ///< The recording under way writes `timestamps`.
  };

  explicit VulkanDevice(const VulkanInstance& instance) : instance_(instance) {}
  /// A free slot, or a new one.
  Result<CommandSlot*> lease_slot();
  /// The slot the calling thread is recording into, taken off its lease
  /// (null when it began nothing).
  CommandSlot* take_recording();
  /// Ends, submits and waits for `slot`'s recording.
  SubmitOutcome submit_slot_and_wait(CommandSlot& slot, std::chrono::milliseconds timeout);
  /// The device time between `slot`'s two timestamps, once its fence signalled.
  std::optional<double> measured_ms(const CommandSlot& slot) const;

  const VulkanInstance& instance_;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::mutex queue_mutex_;  ///< vkQueueSubmit needs the queue held by one thread.
  /// Guards the slots; a deque, so that a slot's address never moves.
  mutable std::mutex slots_mutex_;
  std::deque<CommandSlot> slots_;
  std::vector<CommandSlot*> free_slots_;
  std::map<std::thread::id, CommandSlot*> recording_;
  // Atomic: prepare() reads it on the certifier's compile workers.
  std::atomic<bool> abandoned_{false};
};

/// "what failed: VK_ERROR_..." for a Vulkan call that did not return VK_SUCCESS.
Error vk_error(const std::string& what, VkResult result);

}  // namespace vyre::vulkan
