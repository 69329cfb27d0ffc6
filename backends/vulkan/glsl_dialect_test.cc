// The GLSL dialect's own choices; the rows every dialect must have are
// checked for all three in backends/clike/dialect_test.cc.
#include "backends/vulkan/glsl_dialect.h"

#include <gtest/gtest.h>

namespace vyre::vulkan {
namespace {

TEST(GlslTables, BoolIsAWordInMemoryAndU64AWordPair) {
  EXPECT_EQ(glsl_dialect().type(DataType::Bool)->memory, "uint");
  EXPECT_EQ(glsl_dialect().type(DataType::U64)->value, "uvec2");
}

}  // namespace
}  // namespace vyre::vulkan
