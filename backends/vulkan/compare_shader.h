// The shader that compares one run's output buffer with run 0's on the
// device, so that a batch reads back only run 0 and the runs that differ.
#pragma once

#include <cstdint>

#include "backends/vulkan/shader_interface.h"
#include "backends/vulkan/spirv_tools.h"
#include "spec/support/result.h"

namespace vyre::vulkan {

/// Pipeline-cache key of the compare shader; compiled programs count from 1.
inline constexpr uint64_t kComparePipelineId = 0;

/// Workgroup size of the compare shader.
inline constexpr uint32_t kCompareWorkgroupSize = 64;

/// Push constants of one comparison: `words` words of bindings 0 (run 0) and
/// 1 (the run), the last word compared under `last_word_mask` (the host bytes
/// of a buffer whose length is not a whole number of words); on any
/// difference word `flag` of binding 2 is set to 1.
struct CompareParams {
  uint32_t words = 0;
  uint32_t last_word_mask = 0xFFFFFFFF;
  uint32_t flag = 0;
};

/// The compare shader's SPIR-V, compiled once per process.
Result<SpirvWords> compare_shader_spirv();

/// Its bindings: three storage buffers and CompareParams as push constants.
const ShaderInterface& compare_shader_interface();

/// The mask of the last word of a buffer of `host_bytes` bytes.
uint32_t last_word_mask(uint64_t host_bytes);

}  // namespace vyre::vulkan
