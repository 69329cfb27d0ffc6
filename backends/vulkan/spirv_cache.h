// The lowering's SPIR-V kept on disk between runs. glslang, the SPIR-V
// validator and the optimizer recipes are pure functions of their input, and
// on a warm run they were most of the host's work per L5 program (a perf
// profile of 600 L5 cases on lavapipe: 14% of the process in SPIRV-Tools and
// 6% in glslang by their own code, more in the allocations they make). An
// entry is keyed by the executable's build ID (backends/build_identity.h)
// and the exact input, so a change to this code or to the statically linked
// tools misses; a build without an ID caches nothing. Entries live in a
// folder of their own under BackendOptions::cache_dir, apart from the
// driver's cache that report.json counts.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "backends/disk_cache.h"
#include "backends/vulkan/spirv_tools.h"

namespace vyre::vulkan {

/// Bytes the SPIR-V folder may hold (a default run stored 32 MB on the
/// H200, 17 MB for 600 L5 cases on lavapipe).
inline constexpr uint64_t kSpirvCacheBytes = uint64_t{256} << 20;

class SpirvCache {
 public:
  /// Entries under `dir`/spirv.
  explicit SpirvCache(const std::filesystem::path& dir);

  /// The module stored under (`step`, `input`) by an earlier call of this
  /// build, else make()'s result, stored when it is a module. `step` names
  /// what make() does with `input` ("glsl", "spirv-opt -O", ...).
  Result<SpirvWords> get(std::string_view step, std::span<const std::byte> input,
                         const std::function<Result<SpirvWords>()>& make);

  /// What the folder did so far.
  DiskCacheCounts counts() const { return disk_.counts(); }

 private:
  std::string build_;
  DiskCache disk_;
};

}  // namespace vyre::vulkan
