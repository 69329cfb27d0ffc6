// Program -> GLSL -> SPIR-V -> validated SPIR-V.
#include "backends/vulkan/lowering.h"

#include <span>

#include "backends/clike/int_limits.h"
#include "backends/clike/lowering_refusal.h"
#include "backends/vulkan/glsl_emitter.h"

namespace vyre::vulkan {
namespace {

Error internal_error(const std::string& stage, const std::string& log, const std::string& glsl) {
  return Error{"internal error in the Vulkan lowering (please report it): " + stage + "\n" + log +
               "\n--- generated GLSL ---\n" + glsl};
}

/// glslang's module of `glsl`, once the validator accepted it.
Result<SpirvWords> validated_module(const std::string& glsl) {
  Result<SpirvWords> spirv = compile_glsl_compute(glsl);
  if (!spirv.ok()) return internal_error("glslang rejected the GLSL", spirv.error().message, glsl);
  if (Result<Ok> valid = validate_spirv(*spirv); !valid.ok()) {
    return internal_error("the SPIR-V validator rejected the module", valid.error().message, glsl);
  }
  return spirv;
}

}  // namespace

Result<LoweredProgram> lower_program(const Program& program, uint32_t loop_iteration_budget,
                                     SpirvCache* cache) {
  Result<clike::LoweredSource<ShaderInterface>> glsl = clike::lower_to_source<ShaderInterface>(
      program, loop_iteration_budget, beyond_glsl_limits, emit_glsl);
  if (!glsl.ok()) return glsl.error();
  LoweredProgram lowered;
  lowered.glsl = std::move(glsl->source);
  lowered.iface = std::move(glsl->iface);
  const auto make = [&] { return validated_module(lowered.glsl); };
  Result<SpirvWords> spirv =
      cache ? cache->get("glsl", std::as_bytes(std::span(lowered.glsl)), make) : make();
  if (!spirv.ok()) return spirv.error();
  lowered.spirv = std::move(*spirv);
  return lowered;
}

std::optional<std::string> beyond_glsl_limits(const Program& program) {
  return clike::beyond_int_limits(program, "GLSL", "Vulkan shader");
}

}  // namespace vyre::vulkan
