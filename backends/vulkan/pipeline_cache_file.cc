// Pipeline cache data on disk: keys and the header check.
#include "backends/vulkan/pipeline_cache_file.h"

#include <algorithm>
#include <cstdio>

namespace vyre::vulkan {
namespace {

/// Bytes of VK_PIPELINE_CACHE_HEADER_VERSION_ONE's header.
constexpr size_t kHeaderOneBytes = 16 + VK_UUID_SIZE;

uint32_t u32_at(std::span<const uint8_t> data, size_t at) {
  return uint32_t{data[at]} | uint32_t{data[at + 1]} << 8 | uint32_t{data[at + 2]} << 16 |
         uint32_t{data[at + 3]} << 24;
}

}  // namespace

PipelineCacheOwner pipeline_cache_owner(const VkPhysicalDeviceProperties& props) {
  PipelineCacheOwner owner;
  owner.vendor_id = props.vendorID;
  owner.device_id = props.deviceID;
  owner.driver_version = props.driverVersion;
  std::copy(std::begin(props.pipelineCacheUUID), std::end(props.pipelineCacheUUID),
            owner.uuid.begin());
  return owner;
}

std::string pipeline_cache_key(const PipelineCacheOwner& owner) {
  char ids[64];
  std::snprintf(ids, sizeof ids, "vendor %08x device %08x driver %08x uuid ", owner.vendor_id,
                owner.device_id, owner.driver_version);
  std::string key = std::string("vyre vulkan pipeline cache v1\n") + ids;
  for (uint8_t b : owner.uuid) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    key += hex;
  }
  return key;
}

bool pipeline_cache_data_fits(std::span<const uint8_t> data, const PipelineCacheOwner& owner) {
  if (data.size() < kHeaderOneBytes) return false;
  const uint32_t header_bytes = u32_at(data, 0);
  if (header_bytes < kHeaderOneBytes || header_bytes > data.size()) return false;
  if (u32_at(data, 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE) return false;
  if (u32_at(data, 8) != owner.vendor_id || u32_at(data, 12) != owner.device_id) return false;
  return std::equal(owner.uuid.begin(), owner.uuid.end(), data.begin() + 16);
}

}  // namespace vyre::vulkan
