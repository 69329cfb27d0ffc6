// SPIRV-Tools' optimizer as a second and third encoding of each lowered
// program: every spec-table and execution-model program optimizes with both
// recipes into a module the validator accepts, and the recipes change it.
#include <gtest/gtest.h>

#include "backends/vulkan/lowering.h"
#include "backends/vulkan/spirv_tools.h"
#include "reference/spec_tables/spec_tables.h"

namespace vyre::vulkan {
namespace {

TEST(SpirvOptimize, EveryTableProgramOptimizesIntoAValidModule) {
  std::vector<TestCase> cases = reference::spec_table_cases();
  for (TestCase& c : reference::execution_model_cases()) cases.push_back(std::move(c));
  size_t changed = 0;
  for (const TestCase& c : cases) {
    Result<LoweredProgram> lowered = lower_program(c.program);
    ASSERT_TRUE(lowered.ok()) << c.name << ": " << lowered.error().message;
    for (SpirvRecipe recipe : {SpirvRecipe::Performance, SpirvRecipe::Size}) {
      Result<SpirvWords> optimized = optimize_spirv(lowered->spirv, recipe);
      ASSERT_TRUE(optimized.ok()) << c.name << " " << name_of(recipe) << ": "
                                  << optimized.error().message;
      EXPECT_TRUE(validate_spirv(*optimized).ok()) << c.name << " " << name_of(recipe);
      changed += *optimized != lowered->spirv;
    }
  }
  // Every module comes out of glslang unoptimized, so the recipes rewrite them.
  EXPECT_EQ(changed, 2 * cases.size());
}

TEST(SpirvOptimize, ABrokenModuleIsAnErrorNamingTheRecipe) {
  const SpirvWords garbage = {0x07230203u, 0x00010300u, 0, 1, 0, 42};
  Result<SpirvWords> optimized = optimize_spirv(garbage, SpirvRecipe::Size);
  ASSERT_FALSE(optimized.ok());
  EXPECT_NE(optimized.error().message.find("spirv-opt -Os"), std::string::npos)
      << optimized.error().message;
}

}  // namespace
}  // namespace vyre::vulkan
