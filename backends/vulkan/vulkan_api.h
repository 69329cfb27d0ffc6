// The Vulkan loader, opened at run time. The binary does not link libvulkan, so
// it starts (and the reference backend and `lower` work) on a machine without
// one, and a missing loader is a clear message instead of a failed start.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <memory>
#include <string>

#include "spec/support/result.h"

namespace vyre::vulkan {

/// Entry points of the Vulkan loader; instance-level ones are null until
/// load_instance().
struct VulkanApi {
#define GLOBAL(name) PFN_##name name = nullptr;
#define INSTANCE(name) PFN_##name name = nullptr;
#include "backends/vulkan/vulkan_functions.def"
#undef GLOBAL
#undef INSTANCE
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;

  /// Opens libvulkan.so.1 and loads the global commands. The library stays
  /// loaded for the life of the process (an abandoned device may still run).
  static Result<VulkanApi> open();
  /// Loads every instance-level command of `instance`.
  Result<Ok> load_instance(VkInstance instance);
};

/// "VK_ERROR_DEVICE_LOST" etc.
std::string vk_result_name(VkResult result);

}  // namespace vyre::vulkan
