// Program -> GLSL -> SPIR-V -> validated SPIR-V.
#include "backends/vulkan/lowering.h"

#include "backends/clike/int_limits.h"
#include "backends/clike/validation_error.h"
#include "backends/vulkan/glsl_buffers.h"
#include "backends/vulkan/glsl_emitter.h"
#include "spec/validate/validator.h"

namespace vyre::vulkan {
namespace {

Error internal_error(const std::string& stage, const std::string& log, const std::string& glsl) {
  return Error{"internal error in the Vulkan lowering (please report it): " + stage + "\n" + log +
               "\n--- generated GLSL ---\n" + glsl};
}

}  // namespace

Result<LoweredProgram> lower_program(const Program& program, uint32_t loop_iteration_budget) {
  if (std::optional<Error> invalid = clike::validation_error(program)) return *invalid;
  if (std::optional<std::string> beyond = beyond_glsl_limits(program)) return Error{*beyond};
  LoweredProgram lowered;
  lowered.iface = shader_interface_of(program, loop_iteration_budget);
  Result<std::string> glsl = emit_glsl(program, lowered.iface);
  if (!glsl.ok()) return glsl.error();
  lowered.glsl = std::move(*glsl);
  Result<SpirvWords> spirv = compile_glsl_compute(lowered.glsl);
  if (!spirv.ok())
    return internal_error("glslang rejected the GLSL", spirv.error().message, lowered.glsl);
  if (Result<Ok> valid = validate_spirv(*spirv); !valid.ok()) {
    return internal_error("the SPIR-V validator rejected the module", valid.error().message,
                          lowered.glsl);
  }
  lowered.spirv = std::move(*spirv);
  return lowered;
}

std::optional<std::string> beyond_glsl_limits(const Program& program) {
  return clike::beyond_int_limits(program, "GLSL", "Vulkan shader");
}

Status lowering_failure_status(const Program& program) {
  return validate(program).empty() && beyond_glsl_limits(program) ? Status::NotSupported
                                                                  : Status::CompileError;
}

}  // namespace vyre::vulkan
