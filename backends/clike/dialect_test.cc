// Every dialect of the shared lowering (GLSL, OpenCL C, CUDA C) against the
// spec's own tables: a pattern for every operator, a builtin for every
// atomic, a row for every value type, and cast rows for exactly the valid
// cells of the pinned cast table (spec/ir/casts.h).
#include "backends/clike/dialect.h"

#include <gtest/gtest.h>

#include "backends/cuda/cuda_c_dialect.h"
#include "backends/opencl/opencl_c_dialect.h"
#include "backends/vulkan/glsl_dialect.h"
#include "spec/ir/casts.h"

namespace vyre::clike {
namespace {

class EveryDialect : public ::testing::TestWithParam<const Dialect* (*)()> {
 protected:
  const Dialect& d() const { return *GetParam()(); }
};

TEST_P(EveryDialect, EveryOperatorAndAtomicHasARow) {
  for (BinOp op : all_bin_ops()) {
    const std::string pattern = d().pattern(op);
    EXPECT_NE(pattern.find("$a"), std::string::npos) << d().name << " " << name_of(op);
    EXPECT_NE(pattern.find("$b"), std::string::npos) << d().name << " " << name_of(op);
  }
  for (UnOp op : all_un_ops()) {
    EXPECT_NE(d().pattern(op).find("$a"), std::string::npos) << d().name << " " << name_of(op);
  }
  for (AtomicOp op : all_atomic_ops()) {
    EXPECT_TRUE(d().atomic_function(op).starts_with("atomic")) << d().name << " " << name_of(op);
  }
}

TEST_P(EveryDialect, EveryStableValueTypeHasARowAndBytesHasNone) {
  for (DataType t : all_data_types()) {
    const bool holds_values = is_stable(t) && t != DataType::Bytes;
    EXPECT_EQ(d().type(t).has_value(), holds_values) << d().name << " " << name_of(t);
  }
}

TEST_P(EveryDialect, CastRowsAreExactlyTheValidCellsOfTheSpecTable) {
  for (DataType from : all_data_types()) {
    for (DataType to : all_data_types()) {
      // Bytes -> Bytes is valid but no Bytes value exists in a kernel.
      const bool lowerable =
          cast_verdict(from, to) == CastVerdict::Valid && from != DataType::Bytes;
      EXPECT_EQ(d().cast_pattern(from, to).has_value(), lowerable)
          << d().name << " " << name_of(from) << " -> " << name_of(to);
    }
  }
  EXPECT_EQ(d().cast_pattern(DataType::U32, DataType::U32), "$a");
}

const Dialect* glsl() {
  return &vulkan::glsl_dialect();
}
const Dialect* opencl_c() {
  return &opencl::opencl_c_dialect();
}
const Dialect* cuda_c() {
  return &cuda::cuda_c_dialect();
}

INSTANTIATE_TEST_SUITE_P(
    Dialects, EveryDialect, ::testing::Values(glsl, opencl_c, cuda_c), [](const auto& info) {
      return std::string(info.index == 0 ? "Glsl" : info.index == 1 ? "OpenClC" : "CudaC");
    });

TEST(Expand, FillsOperandsInOrder) {
  EXPECT_EQ(expand("$a + $b", {"x", "y"}), "x + y");
  EXPECT_EQ(expand("($b == 0u ? 0u : $a / $b)", {"t1", "t2"}), "(t2 == 0u ? 0u : t1 / t2)");
  // A '$' not followed by a known operand stays as written.
  EXPECT_EQ(expand("$c $ $", {"x"}), "$c $ $");
}

}  // namespace
}  // namespace vyre::clike
