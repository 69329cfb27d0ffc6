// The Vulkan lowering as one pure function: vyre Program -> validated SPIR-V.
// Used by the backend's compile() and by `vyre-certify lower`.
#pragma once

#include <optional>
#include <string>

#include "backends/backend_options.h"
#include "backends/vulkan/shader_interface.h"
#include "backends/vulkan/spirv_cache.h"
#include "backends/vulkan/spirv_tools.h"
#include "spec/support/result.h"

namespace vyre::vulkan {

/// A program lowered for Vulkan.
struct LoweredProgram {
  std::string glsl;  ///< The GLSL the emitter wrote (input of glslang).
  SpirvWords spirv;  ///< The module, already accepted by the SPIR-V validator.
  ShaderInterface iface;
};

/// Validates `program`, emits GLSL, compiles it with glslang and runs the
/// SPIR-V validator on the module. Touches no device. Errors: the validator's
/// diagnostics for an invalid program; beyond_glsl_limits' message for a
/// valid one no GLSL can express; for a valid one that glslang or the SPIR-V
/// validator rejects (a bug in this lowering), their log and the GLSL. With
/// `cache`, a module this build already compiled from the same GLSL comes
/// from there.
Result<LoweredProgram> lower_program(const Program& program,
                                     uint32_t loop_iteration_budget = kDefaultLoopIterationBudget,
                                     SpirvCache* cache = nullptr);

/// Why `program` cannot be written as GLSL at all, whatever the device: a
/// workgroup size or a workgroup array length past GLSL's int range (2^31 - 1);
/// nullopt when it can. Device limits are checked at dispatch instead.
std::optional<std::string> beyond_glsl_limits(const Program& program);

}  // namespace vyre::vulkan
