#include "spec/support/diagnostic_text.h"

#include <gtest/gtest.h>

namespace vyre {
namespace {

TEST(DiagnosticText, WritesTheCompilerForm) {
  EXPECT_EQ(line_col({3, 14}), "3:14");
  EXPECT_EQ(at_location({3, 14}), " at 3:14");
  EXPECT_EQ(at_location({}), "");
  EXPECT_EQ(file_diagnostic("a.vyre", {2, 5}, "V007", "bad"), "a.vyre:2:5: V007: bad");
  EXPECT_EQ(file_diagnostic("a.vyre", {2, 5}, "", "bad"), "a.vyre:2:5: bad");
}

}  // namespace
}  // namespace vyre
