// glslang, SPIRV-Tools and SPIRV-Cross behind spirv_tools.h.
#include "backends/vulkan/spirv_tools.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <cstdint>
#include <mutex>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv_cross/spirv_glsl.hpp>

namespace vyre::vulkan {
namespace {

/// glslang needs one process-wide initialisation before the first shader. It
/// is never finalised: other threads may still compile at exit.
void initialise_glslang() {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

/// A SPIRV-Tools context for Vulkan 1.1 that collects its messages.
class Tools {
 public:
  Tools() : tools_(SPV_ENV_VULKAN_1_1) {
    tools_.SetMessageConsumer([this](spv_message_level_t, const char*,
                                     const spv_position_t& position, const char* message) {
      if (!log_.empty()) log_ += '\n';
      log_ += "word " + std::to_string(position.index) + ": " + message;
    });
  }
  spvtools::SpirvTools& get() { return tools_; }
  const std::string& log() const { return log_; }

 private:
  spvtools::SpirvTools tools_;
  std::string log_;
};

}  // namespace

Result<SpirvWords> compile_glsl_compute(std::string_view glsl) {
  initialise_glslang();
  glslang::TShader shader(EShLangCompute);
  const char* text = glsl.data();
  const int length = static_cast<int>(glsl.size());
  shader.setStringsWithLengths(&text, &length, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  // Device limits are checked at dispatch, where the device is known;
  // glslang's defaults (1024 x 1024 x 64) must not refuse a larger workgroup.
  TBuiltInResource resources = *GetDefaultResources();
  resources.maxComputeWorkGroupSizeX = INT32_MAX;
  resources.maxComputeWorkGroupSizeY = INT32_MAX;
  resources.maxComputeWorkGroupSizeZ = INT32_MAX;
  if (!shader.parse(&resources, 450, false, messages)) {
    return Error{std::string("glslang rejected the GLSL:\n") + shader.getInfoLog()};
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) {
    return Error{std::string("glslang failed to link the GLSL:\n") + program.getInfoLog()};
  }
  SpirvWords words;
  glslang::SpvOptions options;
  options.disableOptimizer = true;  // The driver optimises; keep the module close to the GLSL.
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), words, &options);
  return words;
}

Result<Ok> validate_spirv(std::span<const uint32_t> words) {
  Tools tools;
  if (!tools.get().Validate(words.data(), words.size())) {
    return Error{"the SPIR-V module is invalid for Vulkan 1.1:\n" + tools.log()};
  }
  return Ok{};
}

Result<std::string> disassemble_spirv(std::span<const uint32_t> words) {
  Tools tools;
  std::string text;
  const uint32_t options =
      SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT;
  if (!tools.get().Disassemble(words.data(), words.size(), &text, options)) {
    return Error{"cannot disassemble the SPIR-V module:\n" + tools.log()};
  }
  return text;
}

Result<std::string> spirv_to_glsl(std::span<const uint32_t> words) {
  // SPIRV-Cross reports errors by exception; none may leave this library.
  try {
    spirv_cross::CompilerGLSL compiler(std::vector<uint32_t>(words.begin(), words.end()));
    spirv_cross::CompilerGLSL::Options options;
    options.version = 450;
    options.vulkan_semantics = true;
    compiler.set_common_options(options);
    return compiler.compile();
  } catch (const std::exception& e) {
    return Error{std::string("SPIRV-Cross cannot decompile the module: ") + e.what()};
  }
}

std::string_view name_of(SpirvRecipe recipe) {
  return recipe == SpirvRecipe::Performance ? "spirv-opt -O" : "spirv-opt -Os";
}

Result<SpirvWords> optimize_spirv(std::span<const uint32_t> words, SpirvRecipe recipe) {
  spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_1);
  std::string log;
  optimizer.SetMessageConsumer([&log](spv_message_level_t, const char*,
                                      const spv_position_t& position, const char* message) {
    if (!log.empty()) log += '\n';
    log += "word " + std::to_string(position.index) + ": " + message;
  });
  if (recipe == SpirvRecipe::Performance) {
    optimizer.RegisterPerformancePasses();
  } else {
    optimizer.RegisterSizePasses();
  }
  // The input is the lowering's module, which the validator already
  // accepted; what the driver receives is the output, so that is validated.
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  SpirvWords out;
  if (!optimizer.Run(words.data(), words.size(), &out, options)) {
    return Error{std::string(name_of(recipe)) + " failed on the module: " + log};
  }
  if (Result<Ok> valid = validate_spirv(out); !valid.ok()) {
    return Error{std::string(name_of(recipe)) +
                 " produced an invalid module: " + valid.error().message};
  }
  return out;
}

}  // namespace vyre::vulkan
