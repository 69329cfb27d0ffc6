// The compare shader: GLSL compiled with glslang once per process.
#include "backends/vulkan/compare_shader.h"

#include <mutex>
#include <optional>

namespace vyre::vulkan {
namespace {

// A grid-stride loop, so any buffer fits in at most 65535 workgroups; with
// that many, no invocation loops more than a few times (llvmpipe cuts loops
// past 65535 back-edges, which a comparison could otherwise hit and miss a
// difference). An invocation stops at its first difference.
constexpr const char* kCompareGlsl = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer First { uint first[]; };
layout(std430, set = 0, binding = 1) readonly buffer Run { uint run[]; };
layout(std430, set = 0, binding = 2) buffer Flags { uint flags[]; };
layout(push_constant) uniform Params { uint words; uint last_word_mask; uint flag; } params;
void main() {
  const uint stride = gl_NumWorkGroups.x * 64u;
  for (uint i = gl_GlobalInvocationID.x; i < params.words; i += stride) {
    const uint mask = i + 1u == params.words ? params.last_word_mask : 0xFFFFFFFFu;
    if (((first[i] ^ run[i]) & mask) != 0u) {
      atomicOr(flags[params.flag], 1u);
      return;
    }
  }
}
)";

}  // namespace

Result<SpirvWords> compare_shader_spirv() {
  static std::once_flag once;
  static std::optional<Result<SpirvWords>> compiled;
  std::call_once(once, [] { compiled = compile_glsl_compute(kCompareGlsl); });
  return *compiled;
}

const ShaderInterface& compare_shader_interface() {
  static const ShaderInterface iface = [] {
    ShaderInterface i;
    // ReadWrite only selects the descriptor type (storage buffer); three
    // buffers give 12 bytes of push constants, exactly CompareParams.
    for (const char* name : {"first", "run", "flags"}) {
      i.buffers.push_back({name, BufferAccess::ReadWrite, DataType::U32, 0});
    }
    i.workgroup_size = {kCompareWorkgroupSize, 1, 1};
    return i;
  }();
  static_assert(sizeof(CompareParams) == 12);
  return iface;
}

uint32_t last_word_mask(uint64_t host_bytes) {
  const uint64_t tail = host_bytes % 4;
  return tail == 0 ? 0xFFFFFFFFu : (uint32_t{1} << (8 * tail)) - 1;
}

}  // namespace vyre::vulkan
