// Pipeline cache data on disk: the header check that keeps another device's
// or a damaged entry away from the driver, and the key.
#include "backends/vulkan/pipeline_cache_file.h"

#include <gtest/gtest.h>

namespace vyre::vulkan {
namespace {

PipelineCacheOwner owner_a() {
  PipelineCacheOwner o;
  o.vendor_id = 0x10DE;
  o.device_id = 0x2330;
  o.driver_version = 0x89A00000;
  for (size_t i = 0; i < o.uuid.size(); ++i) o.uuid[i] = static_cast<uint8_t>(i * 7 + 1);
  return o;
}

void put_u32(std::vector<uint8_t>& d, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) d[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
}

/// Cache data as a driver writes it: the version-one header, then `body` bytes.
std::vector<uint8_t> data_for(const PipelineCacheOwner& o, size_t body = 100) {
  std::vector<uint8_t> d(32 + body, 0xEE);
  put_u32(d, 0, 32);
  put_u32(d, 4, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
  put_u32(d, 8, o.vendor_id);
  put_u32(d, 12, o.device_id);
  std::copy(o.uuid.begin(), o.uuid.end(), d.begin() + 16);
  return d;
}

TEST(PipelineCacheFile, DataOfThisDeviceFits) {
  EXPECT_TRUE(pipeline_cache_data_fits(data_for(owner_a()), owner_a()));
  EXPECT_TRUE(pipeline_cache_data_fits(data_for(owner_a(), 0), owner_a()));
}

TEST(PipelineCacheFile, AnotherDevicesOrADamagedHeaderDoesNotFit) {
  const std::vector<uint8_t> good = data_for(owner_a());
  PipelineCacheOwner other = owner_a();
  other.device_id ^= 1;
  EXPECT_FALSE(pipeline_cache_data_fits(good, other));
  other = owner_a();
  other.vendor_id ^= 1;
  EXPECT_FALSE(pipeline_cache_data_fits(good, other));
  other = owner_a();
  other.uuid[15] ^= 1;
  EXPECT_FALSE(pipeline_cache_data_fits(good, other));
  // Every truncation of the header, and every header field changed.
  for (size_t keep = 0; keep < 32; ++keep) {
    EXPECT_FALSE(
        pipeline_cache_data_fits({good.begin(), good.begin() + static_cast<long>(keep)}, owner_a()))
        << keep;
  }
  for (size_t at = 0; at < 32; ++at) {
    std::vector<uint8_t> bad = good;
    bad[at] ^= 0x80;
    // Byte 0: a header length of 160, past the data's 132 bytes.
    EXPECT_FALSE(pipeline_cache_data_fits(bad, owner_a())) << "byte " << at;
  }
  std::vector<uint8_t> short_header = good;
  put_u32(short_header, 0, 31);
  EXPECT_FALSE(pipeline_cache_data_fits(short_header, owner_a()));
}

TEST(PipelineCacheFile, TheKeyNamesVendorDeviceDriverAndUuid) {
  const std::string a = pipeline_cache_key(owner_a());
  PipelineCacheOwner other = owner_a();
  other.driver_version += 1;
  EXPECT_NE(pipeline_cache_key(other), a);
  other = owner_a();
  other.uuid[0] ^= 1;
  EXPECT_NE(pipeline_cache_key(other), a);
}

}  // namespace
}  // namespace vyre::vulkan
