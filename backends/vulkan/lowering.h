// The Vulkan lowering as one pure function: vyre Program -> validated SPIR-V.
// Used by the backend's compile() and by `vyre-certify lower`.
#pragma once

#include <string>

#include "backends/backend_options.h"
#include "backends/vulkan/shader_interface.h"
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
/// diagnostics for an invalid program; for a valid one that glslang or the
/// SPIR-V validator rejects (a bug in this lowering), their log and the GLSL.
Result<LoweredProgram> lower_program(const Program& program,
                                     uint32_t loop_iteration_budget = kDefaultLoopIterationBudget);

}  // namespace vyre::vulkan
