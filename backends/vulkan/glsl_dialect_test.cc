// The GLSL dialect: every operator has a row, and the cast rows are exactly the valid cells
// of the spec's own cast table (spec/ir/casts.h).
#include "backends/vulkan/glsl_dialect.h"

#include <gtest/gtest.h>

#include "spec/ir/casts.h"

namespace vyre::vulkan {
namespace {

TEST(GlslTables, EveryOperatorHasAPattern) {
  for (BinOp op : all_bin_ops()) {
    EXPECT_NE(glsl_dialect().pattern(op).find("$b"), std::string::npos) << name_of(op);
  }
  for (UnOp op : all_un_ops()) {
    EXPECT_NE(glsl_dialect().pattern(op).find("$a"), std::string::npos) << name_of(op);
  }
  for (AtomicOp op : all_atomic_ops()) {
    EXPECT_TRUE(glsl_dialect().atomic_function(op).starts_with("atomic")) << name_of(op);
  }
}

TEST(GlslTables, EveryStableValueTypeHasARowAndBytesHasNone) {
  for (DataType t : all_data_types()) {
    const bool holds_values = is_stable(t) && t != DataType::Bytes;
    EXPECT_EQ(glsl_dialect().type(t).has_value(), holds_values) << name_of(t);
  }
  EXPECT_EQ(glsl_dialect().type(DataType::Bool)->memory, "uint");
  EXPECT_EQ(glsl_dialect().type(DataType::U64)->value, "uvec2");
}

TEST(GlslTables, CastRowsAreExactlyTheValidCellsOfTheSpecTable) {
  for (DataType from : all_data_types()) {
    for (DataType to : all_data_types()) {
      const bool valid = cast_verdict(from, to) == CastVerdict::Valid;
      // Bytes -> Bytes is valid but no Bytes value exists in a shader.
      const bool lowerable = valid && from != DataType::Bytes;
      EXPECT_EQ(glsl_dialect().cast_pattern(from, to).has_value(), lowerable)
          << name_of(from) << " -> " << name_of(to);
    }
  }
  EXPECT_EQ(glsl_dialect().cast_pattern(DataType::U32, DataType::U32), "$a");
}

TEST(GlslTables, ExpandFillsOperandsInOrder) {
  EXPECT_EQ(clike::expand("$a + $b", {"x", "y"}), "x + y");
  EXPECT_EQ(clike::expand("($b == 0u ? 0u : $a / $b)", {"t1", "t2"}), "(t2 == 0u ? 0u : t1 / t2)");
  // A '$' not followed by a known operand stays as written.
  EXPECT_EQ(clike::expand("$c $ $", {"x"}), "$c $ $");
}

}  // namespace
}  // namespace vyre::vulkan
