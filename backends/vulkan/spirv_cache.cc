#include "backends/vulkan/spirv_cache.h"

#include <cstring>

#include "backends/build_identity.h"

namespace vyre::vulkan {
namespace {

/// The first word of every SPIR-V module.
constexpr uint32_t kSpirvMagic = 0x07230203;

}  // namespace

SpirvCache::SpirvCache(const std::filesystem::path& dir)
    : build_(executable_build_id()), disk_(dir / "spirv", kSpirvCacheBytes) {}

Result<SpirvWords> SpirvCache::get(std::string_view step, std::span<const std::byte> input,
                                   const std::function<Result<SpirvWords>()>& make) {
  if (build_.empty()) return make();
  // The key holds the input itself: DiskCache names the entry by its digest
  // and keeps that digest in the file, so another input never matches.
  std::string key = "vyre-vulkan-spirv\n" + build_ + "\n" + std::string(step) + "\n";
  key.append(reinterpret_cast<const char*>(input.data()), input.size());
  if (std::optional<std::vector<uint8_t>> stored = disk_.load(key);
      stored && !stored->empty() && stored->size() % sizeof(uint32_t) == 0) {
    SpirvWords words(stored->size() / sizeof(uint32_t));
    std::memcpy(words.data(), stored->data(), stored->size());
    if (words[0] == kSpirvMagic) return words;
  }
  Result<SpirvWords> made = make();
  if (made.ok()) {
    disk_.store(key,
                {reinterpret_cast<const uint8_t*>(made->data()), made->size() * sizeof(uint32_t)});
  }
  return made;
}

}  // namespace vyre::vulkan
