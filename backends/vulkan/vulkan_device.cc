// Instance creation, device selection and probing, and the logical device.
#include "backends/vulkan/vulkan_device.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <vector>

namespace vyre::vulkan {
namespace {

std::string version_text(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
         "." + std::to_string(VK_API_VERSION_PATCH(v));
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool is_index(const std::string& s) {
  return !s.empty() && s.size() < 6 &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

/// A physical device as the selector sees it.
struct Candidate {
  VkPhysicalDevice device;
  VkPhysicalDeviceProperties props;
  std::optional<uint32_t> compute_family;
  uint32_t timestamp_valid_bits = 0;  ///< Of the compute family.
  bool usable() const { return compute_family && props.apiVersion >= VK_API_VERSION_1_1; }
  std::string why_unusable() const {
    if (!compute_family) return "it has no compute queue";
    return "it supports only Vulkan " + version_text(props.apiVersion) + "; 1.1 is needed";
  }
};

}  // namespace

Error vk_error(const std::string& what, VkResult result) {
  return Error{what + " failed: " + vk_result_name(result)};
}

Result<std::unique_ptr<VulkanInstance>> VulkanInstance::create(const std::string& selector) {
  Result<VulkanApi> api = VulkanApi::open();
  if (!api.ok()) return api.error();
  std::unique_ptr<VulkanInstance> self(new VulkanInstance);
  self->api_ = *api;
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (self->api_.vkEnumerateInstanceVersion != nullptr) {
    self->api_.vkEnumerateInstanceVersion(&loader_version);
  }
  if (loader_version < VK_API_VERSION_1_1) {
    return Error{"the Vulkan loader supports only Vulkan " + version_text(loader_version) +
                 "; 1.1 is needed. Update the Vulkan loader."};
  }
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "vyre-certify";
  app.pEngineName = "vyre-certify";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  if (VkResult r = self->api_.vkCreateInstance(&info, nullptr, &self->instance_); r != VK_SUCCESS) {
    Error e = vk_error("creating a Vulkan instance", r);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
      // Seen both where no driver is installed and where one is installed but
      // cannot start (NVIDIA's ICD in a container without libglvnd/libEGL).
      e.message +=
          " (no Vulkan driver could be loaded: without a GPU, install mesa-vulkan-drivers for "
          "lavapipe; with one, check its ICD manifest and the libraries it needs, e.g. NVIDIA's "
          "needs libglvnd0 and libegl1; VK_LOADER_DEBUG=error,driver shows why)";
    }
    return e;
  }
  if (Result<Ok> loaded = self->api_.load_instance(self->instance_); !loaded.ok()) {
    return loaded.error();
  }
  if (Result<Ok> chosen = self->choose_device(selector); !chosen.ok()) return chosen.error();
  return self;
}

VulkanInstance::~VulkanInstance() {
  if (instance_ != VK_NULL_HANDLE && !leak_ && api_.vkDestroyInstance != nullptr) {
    api_.vkDestroyInstance(instance_, nullptr);
  }
}

Result<Ok> VulkanInstance::choose_device(const std::string& selector) {
  uint32_t count = 0;
  api_.vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  if (count > 0) api_.vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  devices.resize(count);
  if (devices.empty()) {
    return Error{
        "no Vulkan device: the loader found no physical device. Install a driver "
        "(for a CPU device: mesa-vulkan-drivers, which has lavapipe)"};
  }
  std::vector<Candidate> candidates;
  std::string listing;
  for (size_t i = 0; i < devices.size(); ++i) {
    Candidate c{devices[i], {}, std::nullopt, 0};
    api_.vkGetPhysicalDeviceProperties(devices[i], &c.props);
    uint32_t families = 0;
    api_.vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, nullptr);
    std::vector<VkQueueFamilyProperties> family_props(families);
    api_.vkGetPhysicalDeviceQueueFamilyProperties(devices[i], &families, family_props.data());
    for (uint32_t f = 0; f < families && !c.compute_family; ++f) {
      if (family_props[f].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        c.compute_family = f;
        c.timestamp_valid_bits = family_props[f].timestampValidBits;
      }
    }
    listing += "\n  " + std::to_string(i) + ": " + c.props.deviceName + " (Vulkan " +
               version_text(c.props.apiVersion) + ")";
    candidates.push_back(c);
  }
  const Candidate* chosen = nullptr;
  if (selector.empty()) {
    for (const Candidate& c : candidates) {
      if (c.usable()) {
        chosen = &c;
        break;
      }
    }
    if (chosen == nullptr) {
      return Error{"no usable Vulkan device (one with Vulkan 1.1 and a compute queue):" + listing};
    }
  } else if (is_index(selector)) {
    const size_t index = std::stoul(selector);
    if (index >= candidates.size()) {
      return Error{"there is no Vulkan device " + selector + "; the devices are:" + listing};
    }
    chosen = &candidates[index];
  } else {
    for (const Candidate& c : candidates) {
      if (lower(c.props.deviceName).find(lower(selector)) != std::string::npos) {
        chosen = &c;
        if (c.usable()) break;
      }
    }
    if (chosen == nullptr) {
      return Error{"no Vulkan device name contains \"" + selector +
                   "\"; the devices are:" + listing};
    }
  }
  if (!chosen->usable()) {
    return Error{std::string("Vulkan device ") + chosen->props.deviceName +
                 " cannot be used: " + chosen->why_unusable()};
  }
  physical_ = chosen->device;
  queue_family_ = *chosen->compute_family;
  // A queue family with no valid bits writes no timestamps; a zero period
  // would turn ticks into no time at all, so it counts as none too.
  timestamp_period_ns_ = chosen->props.limits.timestampPeriod;
  timestamp_valid_bits_ = timestamp_period_ns_ > 0 ? chosen->timestamp_valid_bits : 0;
  api_.vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  describe_device(chosen->props);
  return Ok{};
}

void VulkanInstance::describe_device(const VkPhysicalDeviceProperties& props) {
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceProperties2 props2{};
  props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  props2.pNext = &subgroup;
  // Driver properties are core from Vulkan 1.2 only.
  const bool has_driver_props = props.apiVersion >= VK_API_VERSION_1_2;
  if (has_driver_props) subgroup.pNext = &driver;
  api_.vkGetPhysicalDeviceProperties2(physical_, &props2);

  const VkPhysicalDeviceLimits& l = props.limits;
  capabilities_.device_name = props.deviceName;
  if (has_driver_props) {
    capabilities_.driver = std::string(driver.driverName) + " " + driver.driverInfo;
  } else {
    char text[64];
    std::snprintf(text, sizeof text, "vendor 0x%04x driver version 0x%08x", props.vendorID,
                  props.driverVersion);
    capabilities_.driver = text;
  }
  capabilities_.api = "Vulkan " + version_text(props.apiVersion);
  capabilities_.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
  capabilities_.max_workgroup_size = {l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1],
                                      l.maxComputeWorkGroupSize[2]};
  capabilities_.max_workgroup_count = {l.maxComputeWorkGroupCount[0], l.maxComputeWorkGroupCount[1],
                                       l.maxComputeWorkGroupCount[2]};
  // Vulkan caps the grid per axis only (maxComputeWorkGroupCount), and vyre's
  // u32 invocation ids bound each axis to 2^32 - 1 invocations, which
  // dispatch checks; nothing limits the product of the axes, so: no limit.
  capabilities_.max_dispatch_invocations = 0;
  capabilities_.max_storage_buffer_bytes = l.maxStorageBufferRange;
  capabilities_.max_uniform_buffer_bytes = l.maxUniformBufferRange;
  capabilities_.max_workgroup_memory_bytes = l.maxComputeSharedMemorySize;
  capabilities_.preferred_workgroup_size = subgroup.subgroupSize != 0 ? subgroup.subgroupSize : 64;

  limits_.device_name = props.deviceName;
  limits_.max_workgroup_size = capabilities_.max_workgroup_size;
  limits_.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
  limits_.max_workgroup_count = capabilities_.max_workgroup_count;
  limits_.max_storage_buffer_range = l.maxStorageBufferRange;
  limits_.max_uniform_buffer_range = l.maxUniformBufferRange;
  limits_.max_shared_memory = l.maxComputeSharedMemorySize;
  limits_.max_push_constants = l.maxPushConstantsSize;
  limits_.max_storage_buffers_per_stage = l.maxPerStageDescriptorStorageBuffers;
  limits_.max_uniform_buffers_per_stage = l.maxPerStageDescriptorUniformBuffers;
  limits_.min_storage_buffer_offset_alignment = l.minStorageBufferOffsetAlignment;

  const bool shares_memory = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ||
                             props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  constexpr VkMemoryPropertyFlags kUnified = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  unified_memory_ = shares_memory && memory_type(~0u, kUnified, 0).has_value();
  cpu_device_ = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

std::optional<uint32_t> VulkanInstance::memory_type(uint32_t type_bits,
                                                    VkMemoryPropertyFlags required,
                                                    VkMemoryPropertyFlags preferred) const {
  std::optional<uint32_t> fallback;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
    if (!(type_bits & (1u << i)) || (flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (!fallback) fallback = i;
  }
  return fallback;
}

Result<std::unique_ptr<VulkanDevice>> VulkanDevice::create(const VulkanInstance& instance) {
  const VulkanApi& api = instance.api();
  std::unique_ptr<VulkanDevice> self(new VulkanDevice(instance));
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{};
  queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue.queueFamilyIndex = instance.queue_family();
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  if (VkResult r = api.vkCreateDevice(instance.physical_device(), &info, nullptr, &self->device_);
      r != VK_SUCCESS) {
    return vk_error("creating a Vulkan device on " + instance.capabilities().device_name, r);
  }
  api.vkGetDeviceQueue(self->device_, instance.queue_family(), 0, &self->queue_);
  return self;
}

VulkanDevice::~VulkanDevice() {
  if (abandoned_ || device_ == VK_NULL_HANDLE) return;
  const VulkanApi& vk = api();
  vk.vkDeviceWaitIdle(device_);
  for (const CommandSlot& slot : slots_) {
    if (slot.fence != VK_NULL_HANDLE) vk.vkDestroyFence(device_, slot.fence, nullptr);
    if (slot.pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(device_, slot.pool, nullptr);
    if (slot.timestamps != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device_, slot.timestamps, nullptr);
  }
  vk.vkDestroyDevice(device_, nullptr);
}

Result<VulkanDevice::CommandSlot*> VulkanDevice::lease_slot() {
  {
    std::lock_guard lock(slots_mutex_);
    if (!free_slots_.empty()) {
      CommandSlot* slot = free_slots_.back();
      free_slots_.pop_back();
      return slot;
    }
  }
  const VulkanApi& vk = api();
  CommandSlot slot;
  // Destroys what was created when a later step fails.
  const auto undo = [&] {
    if (slot.fence != VK_NULL_HANDLE) vk.vkDestroyFence(device_, slot.fence, nullptr);
    if (slot.pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(device_, slot.pool, nullptr);
  };
  VkCommandPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool.queueFamilyIndex = instance_.queue_family();
  if (VkResult r = vk.vkCreateCommandPool(device_, &pool, nullptr, &slot.pool); r != VK_SUCCESS) {
    return vk_error("vkCreateCommandPool", r);
  }
  VkCommandBufferAllocateInfo alloc{};
  alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  alloc.commandPool = slot.pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  if (VkResult r = vk.vkAllocateCommandBuffers(device_, &alloc, &slot.commands); r != VK_SUCCESS) {
    undo();
    return vk_error("vkAllocateCommandBuffers", r);
  }
  VkFenceCreateInfo fence{};
  fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  if (VkResult r = vk.vkCreateFence(device_, &fence, nullptr, &slot.fence); r != VK_SUCCESS) {
    undo();
    return vk_error("vkCreateFence", r);
  }
  if (instance_.timestamp_valid_bits() != 0) {
    VkQueryPoolCreateInfo queries{};
    queries.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    queries.queryType = VK_QUERY_TYPE_TIMESTAMP;
    queries.queryCount = 2;
    if (VkResult r = vk.vkCreateQueryPool(device_, &queries, nullptr, &slot.timestamps);
        r != VK_SUCCESS) {
      undo();
      return vk_error("vkCreateQueryPool", r);
    }
  }
  std::lock_guard lock(slots_mutex_);
  return &slots_.emplace_back(slot);
}

size_t VulkanDevice::command_buffers() const {
  std::lock_guard lock(slots_mutex_);
  return slots_.size();
}

VulkanDevice::CommandSlot* VulkanDevice::take_recording() {
  std::lock_guard lock(slots_mutex_);
  const auto it = recording_.find(std::this_thread::get_id());
  if (it == recording_.end()) return nullptr;
  CommandSlot* slot = it->second;
  recording_.erase(it);
  return slot;
}

Result<VkCommandBuffer> VulkanDevice::begin(bool timed) {
  // A recording this thread began and never submitted (its caller failed
  // midway) is begun again rather than leaked.
  CommandSlot* slot = take_recording();
  if (slot == nullptr) {
    Result<CommandSlot*> leased = lease_slot();
    if (!leased.ok()) return leased.error();
    slot = *leased;
  }
  {
    std::lock_guard lock(slots_mutex_);
    recording_[std::this_thread::get_id()] = slot;
  }
  const VulkanApi& vk = api();
  if (VkResult r = vk.vkResetCommandPool(device_, slot->pool, 0); r != VK_SUCCESS) {
    return vk_error("vkResetCommandPool", r);
  }
  VkCommandBufferBeginInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult r = vk.vkBeginCommandBuffer(slot->commands, &info); r != VK_SUCCESS) {
    return vk_error("vkBeginCommandBuffer", r);
  }
  slot->timed = timed && slot->timestamps != VK_NULL_HANDLE;
  if (slot->timed) {
    vk.vkCmdResetQueryPool(slot->commands, slot->timestamps, 0, 2);
    vk.vkCmdWriteTimestamp(slot->commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, slot->timestamps, 0);
  }
  return slot->commands;
}

SubmitOutcome VulkanDevice::submit_and_wait(std::chrono::milliseconds timeout) {
  CommandSlot* leased = take_recording();
  if (leased == nullptr) {
    return {Status::Error, "submit_and_wait without begin() on this thread (a backend bug)",
            std::nullopt};
  }
  CommandSlot& slot = *leased;
  SubmitOutcome outcome = submit_slot_and_wait(slot, timeout);
  // After a timeout the hung work may still signal the fence: the slot is
  // kept out, with the device abandoned.
  if (outcome.status != Status::Timeout) {
    std::lock_guard lock(slots_mutex_);
    free_slots_.push_back(leased);
  }
  return outcome;
}

SubmitOutcome VulkanDevice::submit_slot_and_wait(CommandSlot& slot,
                                                 std::chrono::milliseconds timeout) {
  const VulkanApi& vk = api();
  const auto failed = [](Status status, const std::string& what, VkResult r) {
    return SubmitOutcome{status, what + " returned " + vk_result_name(r), std::nullopt};
  };
  // After every command the caller recorded: the end of the device's work.
  if (slot.timed) {
    vk.vkCmdWriteTimestamp(slot.commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, slot.timestamps, 1);
  }
  if (VkResult r = vk.vkEndCommandBuffer(slot.commands); r != VK_SUCCESS) {
    return failed(Status::Error, "vkEndCommandBuffer", r);
  }
  if (VkResult r = vk.vkResetFences(device_, 1, &slot.fence); r != VK_SUCCESS) {
    return failed(r == VK_ERROR_DEVICE_LOST ? Status::DeviceLost : Status::Error, "vkResetFences",
                  r);
  }
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &slot.commands;
  VkResult submitted;
  {
    std::lock_guard lock(queue_mutex_);
    submitted = vk.vkQueueSubmit(queue_, 1, &submit, slot.fence);
  }
  if (submitted != VK_SUCCESS) {
    return failed(submitted == VK_ERROR_DEVICE_LOST ? Status::DeviceLost : Status::Error,
                  "vkQueueSubmit", submitted);
  }
  const auto nanoseconds = std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count();
  const VkResult r = vk.vkWaitForFences(device_, 1, &slot.fence, VK_TRUE,
                                        static_cast<uint64_t>(std::max<int64_t>(nanoseconds, 0)));
  if (r == VK_SUCCESS) return {Status::Ok, "", measured_ms(slot)};
  if (r == VK_TIMEOUT) {
    return {Status::Timeout,
            "the device did not finish within " + std::to_string(timeout.count()) +
                " ms (fence timeout); the device was abandoned and recreated",
            std::nullopt};
  }
  if (r == VK_ERROR_DEVICE_LOST) {
    return {Status::DeviceLost, "the device was lost (VK_ERROR_DEVICE_LOST); it was recreated",
            std::nullopt};
  }
  return failed(Status::Error, "vkWaitForFences", r);
}

std::optional<double> VulkanDevice::measured_ms(const CommandSlot& slot) const {
  if (!slot.timed) return std::nullopt;
  std::array<uint64_t, 2> ticks{};
  // The fence signalled, so both timestamps are written; a driver that says
  // otherwise (VK_NOT_READY) or fails gives no measurement, never a guess.
  if (api().vkGetQueryPoolResults(device_, slot.timestamps, 0, 2, sizeof ticks, ticks.data(),
                                  sizeof(uint64_t), VK_QUERY_RESULT_64_BIT) != VK_SUCCESS) {
    return std::nullopt;
  }
  const uint32_t bits = instance_.timestamp_valid_bits();
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  // Modulo the valid bits, so that a counter that wrapped between the two
  // still gives the elapsed ticks.
  const uint64_t elapsed = (ticks[1] - ticks[0]) & mask;
  return static_cast<double>(elapsed) * instance_.timestamp_period_ns() / 1e6;
}

}  // namespace vyre::vulkan
