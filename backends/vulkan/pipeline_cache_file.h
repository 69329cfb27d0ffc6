// The driver's VkPipelineCache kept on disk (backends/disk_cache.h) between
// runs, so a binary's first run compiles as fast as a warm one: NVIDIA's own
// shader cache is kept per executable, a new build starts it cold. The entry
// is keyed by vendor, device, driver version and pipelineCacheUUID, and its
// data is used only when the header Vulkan defines for cache data names this
// same device; anything else is a miss.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "backends/vulkan/vulkan_api.h"

namespace vyre::vulkan {

/// The device a pipeline cache belongs to, from VkPhysicalDeviceProperties.
struct PipelineCacheOwner {
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t driver_version = 0;
  std::array<uint8_t, VK_UUID_SIZE> uuid{};
};

/// The owner of `props`' device.
PipelineCacheOwner pipeline_cache_owner(const VkPhysicalDeviceProperties& props);

/// The disk cache key of `owner`'s pipeline cache.
std::string pipeline_cache_key(const PipelineCacheOwner& owner);

/// True when `data` starts with a VK_PIPELINE_CACHE_HEADER_VERSION_ONE header
/// (header length at least 32 and within the data) naming `owner`'s vendor,
/// device and pipelineCacheUUID.
bool pipeline_cache_data_fits(std::span<const uint8_t> data, const PipelineCacheOwner& owner);

}  // namespace vyre::vulkan
