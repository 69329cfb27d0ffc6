// SPIR-V tooling behind plain C++ types, so that callers outside
// backends/vulkan need no glslang, SPIRV-Tools or SPIRV-Cross headers.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/support/result.h"

namespace vyre::vulkan {

/// A SPIR-V module as 32-bit words.
using SpirvWords = std::vector<uint32_t>;

/// Compiles GLSL 450 compute source to SPIR-V 1.3 for Vulkan 1.1 with
/// glslang. Errors carry glslang's log.
Result<SpirvWords> compile_glsl_compute(std::string_view glsl);

/// Runs the SPIRV-Tools validator (target environment Vulkan 1.1). Errors
/// carry every message it printed.
Result<Ok> validate_spirv(std::span<const uint32_t> words);

/// The SPIRV-Tools optimizer's recipes: `spirv-opt -O` and `spirv-opt -Os`.
enum class SpirvRecipe : uint8_t { Performance, Size };

/// "spirv-opt -O" or "spirv-opt -Os".
std::string_view name_of(SpirvRecipe recipe);

/// The module after the optimizer's `recipe` (another legal encoding of the
/// same program, as a driver's own compiler would receive from an optimising
/// front end). `words` must be a module the validator accepted (the
/// lowering's); the output is validated. Errors carry the optimizer's or the
/// validator's messages.
Result<SpirvWords> optimize_spirv(std::span<const uint32_t> words, SpirvRecipe recipe);

/// SPIRV-Tools disassembly, one instruction per line with friendly names.
Result<std::string> disassemble_spirv(std::span<const uint32_t> words);

/// GLSL 450 (Vulkan semantics) decompiled from the module by SPIRV-Cross.
Result<std::string> spirv_to_glsl(std::span<const uint32_t> words);

}  // namespace vyre::vulkan
