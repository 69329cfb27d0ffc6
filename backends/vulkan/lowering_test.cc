// The lowering without a device: modules validate, tools round-trip, and a
// program the emitter cannot lower is an error naming the node, not a crash.
#include "backends/vulkan/lowering.h"

#include <gtest/gtest.h>

#include "backends/vulkan/glsl_buffers.h"
#include "backends/vulkan/glsl_emitter.h"
#include "backends/vulkan/vulkan_backend.h"
#include "spec/ir/builder.h"
#include "spec/validate/validator.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;

const Program kAddOne{
    {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
    {64, 1, 1},
    {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(1)))}};

TEST(Lowering, ProducesAValidatedModuleAndItsGlsl) {
  Result<LoweredProgram> lowered = lower_program(kAddOne);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  EXPECT_TRUE(validate_spirv(lowered->spirv).ok());
  EXPECT_EQ(lowered->spirv.front(), 0x07230203u);  // SPIR-V magic number.
  EXPECT_NE(lowered->glsl.find("local_size_x = 64"), std::string::npos);
  EXPECT_EQ(lowered->iface.buffers.size(), 2u);
}

TEST(Lowering, DisassemblyAndSpirvCrossReadTheModule) {
  Result<LoweredProgram> lowered = lower_program(kAddOne);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  Result<std::string> text = disassemble_spirv(lowered->spirv);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_NE(text->find("OpEntryPoint GLCompute"), std::string::npos);
  Result<std::string> glsl = spirv_to_glsl(lowered->spirv);
  ASSERT_TRUE(glsl.ok()) << glsl.error().message;
  EXPECT_NE(glsl->find("#version 450"), std::string::npos);
  EXPECT_NE(glsl->find("local_size_x = 64"), std::string::npos);
}

TEST(Lowering, ValidatorRejectsABrokenModule) {
  Result<LoweredProgram> lowered = lower_program(kAddOne);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  SpirvWords truncated(lowered->spirv.begin(), lowered->spirv.begin() + lowered->spirv.size() / 2);
  Result<Ok> valid = validate_spirv(truncated);
  ASSERT_FALSE(valid.ok());
  EXPECT_NE(valid.error().message.find("invalid for Vulkan 1.1"), std::string::npos);
  EXPECT_FALSE(validate_spirv(SpirvWords{}).ok());
  EXPECT_FALSE(disassemble_spirv(SpirvWords{1, 2, 3}).ok());
  EXPECT_FALSE(spirv_to_glsl(SpirvWords{1, 2, 3}).ok());
}

TEST(Lowering, GlslangErrorsAreReported) {
  Result<SpirvWords> words = compile_glsl_compute("#version 450\nvoid main() { undefined(); }\n");
  ASSERT_FALSE(words.ok());
  EXPECT_NE(words.error().message.find("undefined"), std::string::npos) << words.error().message;
}

/// The emitter's message for a program validation would reject.
std::string emit_error(const Program& p, const OpRegistry& ops = OpRegistry::standard()) {
  Result<std::string> glsl = emit_glsl(p, shader_interface_of(p, 0), ops);
  return glsl.ok() ? "lowered" : glsl.error().message;
}

TEST(GlslEmitter, UnlowerableNodesAreErrorsNamingTheProblem) {
  const BufferDecl out = storage("out", 0, BufferAccess::ReadWrite);
  EXPECT_NE(emit_error({{out}, {1, 1, 1}, {store("out", u32(0), var("nope"))}})
                .find("unknown variable `nope`"),
            std::string::npos);
  EXPECT_NE(
      emit_error({{out}, {1, 1, 1}, {store("gone", u32(0), u32(1))}}).find("unknown buffer `gone`"),
      std::string::npos);
  EXPECT_NE(emit_error({{out}, {1, 1, 1}, {store("out", u32(0), call("graph.bfs", {}))}})
                .find("not a registered inlinable op"),
            std::string::npos);
  EXPECT_NE(
      emit_error({{out}, {1, 1, 1}, {store("out", u32(0), boolean(true))}}).find("element type"),
      std::string::npos);
  EXPECT_NE(emit_error({{out}, {1, 1, 1}, {store("out", u32(0), add(boolean(true), u32(1)))}})
                .find("must be u32, not bool"),
            std::string::npos);
  EXPECT_NE(emit_error({{out}, {1, 1, 1}, {loop("i", u32(0), u32(1), {assign("i", u32(3))})}})
                .find("immutable"),
            std::string::npos);
  EXPECT_NE(emit_error({{out}, {1, 1, 1}, {store("out", u32(0), invocation_id(3))}}).find("axis 3"),
            std::string::npos);
  EXPECT_NE(emit_error({{storage("in", 0, BufferAccess::ReadOnly)},
                        {1, 1, 1},
                        {let("x", atomic(AtomicOp::Add, "in", u32(0), u32(1)))}})
                .find("read_write u32"),
            std::string::npos);
  EXPECT_NE(
      emit_error(
          {{out}, {1, 1, 1}, {let("x", cast(DataType::Vec4U32, cast(DataType::U64, u32(1))))}})
          .find("no cast from u64 to vec4u32"),
      std::string::npos);
}

TEST(GlslEmitter, RecursiveCompositionIsAnErrorNotAStackOverflow) {
  OpRegistry ops = OpRegistry::standard();
  ops.add({"test.forever", 1, true, call("test.forever", {var("a")}), {}, "calls itself"});
  const Program p{{storage("out", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {store("out", u32(0), call("test.forever", {u32(1)}))}};
  EXPECT_NE(emit_error(p, ops).find("calls nest deeper than 64"), std::string::npos);
}

TEST(GlslEmitter, NamesNeverClashWithGlsl) {
  // IR names that are GLSL keywords, builtins or contain "__" still lower.
  const Program p{{storage("main", 0, BufferAccess::ReadWrite)},
                  {1, 1, 1},
                  {let("int", u32(1)), let("gl_Position", u32(2)), let("a__b", u32(3)),
                   store("main", u32(0), add(add(var("int"), var("gl_Position")), var("a__b")))}};
  Result<std::string> glsl = emit_glsl(p, shader_interface_of(p, 0));
  ASSERT_TRUE(glsl.ok()) << glsl.error().message;
  EXPECT_TRUE(compile_glsl_compute(*glsl).ok()) << *glsl;
}

TEST(GlslEmitter, NoNameCanChangeTheMeaningOfTheGlsl) {
  // A name ending in a backslash once continued a `//` comment onto the next
  // line of GLSL. Every byte, last in a buffer name, must lower.
  int lowered = 0;
  for (int byte = 1; byte < 256; ++byte) {
    const std::string suffix(1, static_cast<char>(byte));
    const Program p{{storage("x" + suffix, 0, BufferAccess::ReadWrite),
                     workgroup("y" + suffix, DataType::U32, 4)},
                    {1, 1, 1},
                    {store("x" + suffix, u32(0), add(load("y" + suffix, u32(0)), u32(1)))}};
    if (!validate(p).empty()) continue;
    Result<LoweredProgram> result = lower_program(p);
    EXPECT_TRUE(result.ok()) << "byte " << byte << ": " << result.error().message;
    ++lowered;
  }
  EXPECT_GE(lowered, 95);  // At least every printable ASCII byte, backslash included.
  EXPECT_EQ(clike::comment_text("x\\"), "x_");
  EXPECT_EQ(clike::comment_text("a\nb"), "a_b");
}

TEST(Lowering, ProgramsNoGlslCanExpressAreNotSupportedNotInternalErrors) {
  VulkanBackend backend{BackendOptions{}};  // compile() needs no device.
  const auto expect_not_supported = [&](const Program& p, const std::string& message) {
    ASSERT_TRUE(validate(p).empty());
    Result<LoweredProgram> lowered = lower_program(p);
    ASSERT_FALSE(lowered.ok());
    EXPECT_EQ(lowered.error().message, message);
    // compile() refuses it too: by the device's own limits when a device is
    // there (checked first, before lowering), else by the lowering's message.
    const CompileOutcome compiled = backend.compile(p);
    EXPECT_EQ(compiled.status, Status::NotSupported) << compiled.message;
    EXPECT_FALSE(compiled.message.empty());
  };
  const BufferDecl out = storage("out", 0, BufferAccess::ReadWrite);
  expect_not_supported({{out}, {1, 1, 0x80000000}, {store("out", u32(0), u32(1))}},
                       "the workgroup size on z 2147483648 is past 2147483647, the largest int "
                       "GLSL can write there, so no Vulkan shader can express this program");
  expect_not_supported({{out, workgroup("big", DataType::U32, 0x80000000)},
                        {1, 1, 1},
                        {store("out", u32(0), load("big", u32(0)))}},
                       "workgroup buffer `big` has 2147483648 elements, which is past 2147483647, "
                       "the largest int GLSL can write there, so no Vulkan shader can express this "
                       "program");
  // The largest int is still written: devices refuse such programs at dispatch.
  EXPECT_TRUE(lower_program({{out, workgroup("big", DataType::U32, 0x7FFFFFFF)},
                             {0x7FFFFFFF, 1, 1},
                             {store("out", u32(0), load("big", u32(0)))}})
                  .ok());
  // An invalid program stays a compile error, whatever its size.
  const CompileOutcome invalid =
      backend.compile({{out}, {0x80000000, 1, 1}, {store("gone", u32(0), u32(1))}});
  EXPECT_EQ(invalid.status, Status::CompileError);
  EXPECT_TRUE(invalid.message.starts_with("invalid program")) << invalid.message;
}

}  // namespace
}  // namespace vyre::vulkan
