#include "certify/run/output_shape.h"

#include <gtest/gtest.h>

#include "spec/ir/builder.h"

namespace vyre::certify {
namespace {

using namespace build;

Program two_outputs() {
  return Program{
      {storage("in", 0, BufferAccess::ReadOnly), storage("a", 1, BufferAccess::ReadWrite),
       storage("b", 2, BufferAccess::ReadWrite)},
      {1, 1, 1},
      {}};
}

const BufferSet kInputs = {
    {"in", ByteBuffer(8, 1)}, {"a", ByteBuffer(16, 0)}, {"b", ByteBuffer(4, 0)}};

TEST(OutputShape, TheReadWriteBuffersAtTheirInputSizesPass) {
  EXPECT_EQ(output_shape_problem(two_outputs(), kInputs,
                                 {{"a", ByteBuffer(16, 7)}, {"b", ByteBuffer(4, 9)}}),
            std::nullopt);
}

TEST(OutputShape, ShortMissingAndExtraBuffersAreNamed) {
  const std::pair<BufferSet, const char*> bad[] = {
      {{{"a", ByteBuffer(15, 0)}, {"b", ByteBuffer(4, 0)}},
       "buffer 'a' came back with 15 bytes; the dispatch gave it 16"},
      {{{"a", ByteBuffer(16, 0)}, {"b", ByteBuffer(8, 0)}},
       "buffer 'b' came back with 8 bytes; the dispatch gave it 4"},
      {{{"a", ByteBuffer(16, 0)}}, "the read_write buffer 'b' did not come back"},
      {{{"a", ByteBuffer(16, 0)}, {"b", ByteBuffer(4, 0)}, {"in", ByteBuffer(8, 1)}},
       "buffer 'in' came back, but the program has no read_write buffer of that name (it has 2)"},
  };
  for (const auto& [outputs, why] : bad) {
    auto problem = output_shape_problem(two_outputs(), kInputs, outputs);
    ASSERT_TRUE(problem.has_value()) << why;
    EXPECT_NE(problem->find(why), std::string::npos) << *problem;
  }
}

TEST(OutputShape, AScratchBufferMayBeLeftOutButIsCheckedWhenPresent) {
  const std::vector<std::string> scratch = {"b"};
  EXPECT_EQ(output_shape_problem(two_outputs(), kInputs, {{"a", ByteBuffer(16, 7)}}, scratch),
            std::nullopt);
  EXPECT_EQ(output_shape_problem(two_outputs(), kInputs,
                                 {{"a", ByteBuffer(16, 7)}, {"b", ByteBuffer(4, 9)}}, scratch),
            std::nullopt);
  const std::pair<BufferSet, const char*> bad[] = {
      {{{"a", ByteBuffer(16, 0)}, {"b", ByteBuffer(3, 0)}},
       "buffer 'b' came back with 3 bytes; the dispatch gave it 4"},
      {{{"b", ByteBuffer(4, 0)}}, "the read_write buffer 'a' did not come back"},
      {{{"a", ByteBuffer(16, 0)}, {"in", ByteBuffer(8, 1)}},
       "buffer 'in' came back, but the program has no read_write buffer of that name (it has 2)"},
  };
  for (const auto& [outputs, why] : bad) {
    auto problem = output_shape_problem(two_outputs(), kInputs, outputs, scratch);
    ASSERT_TRUE(problem.has_value()) << why;
    EXPECT_NE(problem->find(why), std::string::npos) << *problem;
  }
}

}  // namespace
}  // namespace vyre::certify
