// The optimizer's encodings on a device (lavapipe in CI): every
// execution-model program and a spread of spec-table programs, compiled as
// spirv-opt -O and -Os (VulkanBackend::compile_encoded), gives the reference
// interpreter's bytes; an encoding the backend lacks is not supported.
#include <gtest/gtest.h>

#include "backends/vulkan/vulkan_test_support.h"
#include "reference/interpreter.h"
#include "reference/spec_tables/spec_tables.h"

namespace vyre::vulkan {
namespace {

std::vector<TestCase> programs() {
  std::vector<TestCase> out = reference::execution_model_cases();
  const std::vector<TestCase> table = reference::spec_table_cases();
  // Every seventh spec-table case: each op family, without compiling 150.
  for (size_t i = 0; i < table.size(); i += 7) out.push_back(table[i]);
  return out;
}

TEST(SpirvOptimizeRun, BothRecipesGiveTheReferenceBytes) {
  VulkanBackend& backend = testing::shared_backend();
  ASSERT_EQ(backend.encodings(),
            (std::vector<Encoding>{Encoding::SpirvOptPerformance, Encoding::SpirvOptSize}));
  for (const TestCase& c : programs()) {
    auto expected = reference::run(c.program, c.inputs, c.grid);
    ASSERT_TRUE(expected.ok()) << c.name << ": " << expected.error().message;
    for (Encoding e : backend.encodings()) {
      CompileOutcome compiled = backend.compile_encoded(c.program, e);
      ASSERT_EQ(compiled.status, Status::Ok)
          << c.name << " " << name_of(e) << ": " << compiled.message;
      const auto& module = dynamic_cast<const VulkanProgram&>(*compiled.program).lowered().spirv;
      EXPECT_TRUE(validate_spirv(module).ok()) << c.name << " " << name_of(e);
      DispatchOutcome run = backend.dispatch(*compiled.program, c.inputs, c.grid);
      ASSERT_EQ(run.status, Status::Ok) << c.name << " " << name_of(e) << ": " << run.message;
      EXPECT_EQ(run.outputs, expected->outputs)
          << c.name << " " << name_of(e) << ": observed" << testing::describe(run.outputs)
          << "\nexpected" << testing::describe(expected->outputs);
    }
  }
}

TEST(SpirvOptimizeRun, TheOptimizedModuleIsAnotherModule) {
  VulkanBackend& backend = testing::shared_backend();
  const TestCase c = reference::execution_model_cases().front();
  CompileOutcome emitted = backend.compile(c.program);
  CompileOutcome optimized = backend.compile_encoded(c.program, Encoding::SpirvOptPerformance);
  ASSERT_EQ(emitted.status, Status::Ok) << emitted.message;
  ASSERT_EQ(optimized.status, Status::Ok) << optimized.message;
  EXPECT_NE(dynamic_cast<const VulkanProgram&>(*emitted.program).lowered().spirv,
            dynamic_cast<const VulkanProgram&>(*optimized.program).lowered().spirv);
}

TEST(SpirvOptimizeRun, AnOpenClEncodingIsNotSupported) {
  VulkanBackend& backend = testing::shared_backend();
  const TestCase c = reference::execution_model_cases().front();
  CompileOutcome out = backend.compile_encoded(c.program, Encoding::ClOptDisable);
  EXPECT_EQ(out.status, Status::NotSupported);
  EXPECT_EQ(out.program, nullptr);
  EXPECT_NE(out.message.find("cl-opt-disable"), std::string::npos) << out.message;
}

}  // namespace
}  // namespace vyre::vulkan
