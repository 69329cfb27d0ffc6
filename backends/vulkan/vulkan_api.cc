// Loading Vulkan with dlopen.
#include "backends/vulkan/vulkan_api.h"

#include <dlfcn.h>

#include <array>
#include <utility>

#include "backends/system_library.h"

namespace vyre::vulkan {
namespace {

constexpr std::array<std::pair<VkResult, const char*>, 16> kResultNames = {{
    {VK_SUCCESS, "VK_SUCCESS"},
    {VK_NOT_READY, "VK_NOT_READY"},
    {VK_TIMEOUT, "VK_TIMEOUT"},
    {VK_INCOMPLETE, "VK_INCOMPLETE"},
    {VK_ERROR_OUT_OF_HOST_MEMORY, "VK_ERROR_OUT_OF_HOST_MEMORY"},
    {VK_ERROR_OUT_OF_DEVICE_MEMORY, "VK_ERROR_OUT_OF_DEVICE_MEMORY"},
    {VK_ERROR_INITIALIZATION_FAILED, "VK_ERROR_INITIALIZATION_FAILED"},
    {VK_ERROR_DEVICE_LOST, "VK_ERROR_DEVICE_LOST"},
    {VK_ERROR_MEMORY_MAP_FAILED, "VK_ERROR_MEMORY_MAP_FAILED"},
    {VK_ERROR_LAYER_NOT_PRESENT, "VK_ERROR_LAYER_NOT_PRESENT"},
    {VK_ERROR_EXTENSION_NOT_PRESENT, "VK_ERROR_EXTENSION_NOT_PRESENT"},
    {VK_ERROR_FEATURE_NOT_PRESENT, "VK_ERROR_FEATURE_NOT_PRESENT"},
    {VK_ERROR_INCOMPATIBLE_DRIVER, "VK_ERROR_INCOMPATIBLE_DRIVER"},
    {VK_ERROR_TOO_MANY_OBJECTS, "VK_ERROR_TOO_MANY_OBJECTS"},
    {VK_ERROR_UNKNOWN, "VK_ERROR_UNKNOWN"},
    {VK_ERROR_INVALID_SHADER_NV, "VK_ERROR_INVALID_SHADER_NV"},
}};

constexpr std::array<const char*, 2> kLoaderNames = {"libvulkan.so.1", "libvulkan.so"};

}  // namespace

std::string vk_result_name(VkResult result) {
  for (const auto& [value, name] : kResultNames) {
    if (value == result) return name;
  }
  return "VkResult " + std::to_string(static_cast<int>(result));
}

Result<VulkanApi> VulkanApi::open() {
  const Result<void*> opened = open_first_library(kLoaderNames);
  if (!opened) {
    return Error{"no Vulkan loader: cannot open libvulkan.so.1 (" + opened.error().message +
                 "). Install the Vulkan loader (Debian/Ubuntu: libvulkan1) and a driver."};
  }
  VulkanApi api;
  api.vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(*opened, "vkGetInstanceProcAddr"));
  if (api.vkGetInstanceProcAddr == nullptr) {
    return Error{"the Vulkan loader has no vkGetInstanceProcAddr; it is not a Vulkan loader"};
  }
#define GLOBAL(name) \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(nullptr, #name));
#define INSTANCE(name)
#include "backends/vulkan/vulkan_functions.def"
#undef GLOBAL
#undef INSTANCE
  if (api.vkCreateInstance == nullptr) return Error{"the Vulkan loader lacks vkCreateInstance"};
  return api;
}

Result<Ok> VulkanApi::load_instance(VkInstance instance) {
  std::string missing;
#define GLOBAL(name)
#define INSTANCE(name)                                                         \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name)); \
  if (name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
#include "backends/vulkan/vulkan_functions.def"
#undef GLOBAL
#undef INSTANCE
  if (!missing.empty()) {
    return Error{"the Vulkan loader does not provide " + missing + " (Vulkan 1.1 is needed)"};
  }
  return Ok{};
}

}  // namespace vyre::vulkan
