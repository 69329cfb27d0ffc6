// S3 operators and the pinned cast table on the Vulkan backend, against
// hand-written expected values (the edge cases where GLSL/SPIR-V differ from
// vyre or leave the result undefined).
#include <gtest/gtest.h>

#include "backends/vulkan/vulkan_test_support.h"
#include "spec/ir/builder.h"

namespace vyre::vulkan {
namespace {

using namespace vyre::build;
using testing::Case;
using testing::expect_case;
using testing::words;

struct BinCase {
  BinOp op;
  uint32_t a, b, expected;
};

// Hand-written from SEMANTICS S3 / bin_ops.def.
constexpr BinCase kBinCases[] = {
    {BinOp::Add, 0xFFFFFFFF, 1, 0},
    {BinOp::Add, 0x80000000, 0x80000000, 0},
    {BinOp::Sub, 0, 1, 0xFFFFFFFF},
    {BinOp::Mul, 0x10000, 0x10000, 0},
    {BinOp::Mul, 0xFFFFFFFF, 0xFFFFFFFF, 1},
    {BinOp::Div, 7, 0, 0},
    {BinOp::Div, 0xFFFFFFFF, 2, 0x7FFFFFFF},
    {BinOp::Div, 0, 0, 0},
    {BinOp::Mod, 7, 0, 0},
    {BinOp::Mod, 0xFFFFFFFF, 10, 5},
    {BinOp::BitAnd, 0xF0F0F0F0, 0x55555555, 0x50505050},
    {BinOp::BitOr, 0xF0F0F0F0, 0x55555555, 0xF5F5F5F5},
    {BinOp::BitXor, 0xDEADBEEF, 0xDEADBEEF, 0},
    {BinOp::Shl, 1, 31, 0x80000000},
    {BinOp::Shl, 1, 32, 1},
    {BinOp::Shl, 1, 33, 2},
    {BinOp::Shl, 0xCAFEBABE, 0xFFFFFFFF, 0},
    {BinOp::Shr, 0x80000000, 31, 1},
    {BinOp::Shr, 0x80000000, 32, 0x80000000},
    {BinOp::Shr, 0x80000000, 33, 0x40000000},
    {BinOp::Eq, 5, 5, 1},
    {BinOp::Ne, 5, 5, 0},
    {BinOp::Lt, 0xFFFFFFFF, 1, 0},
    {BinOp::Gt, 0xFFFFFFFF, 1, 1},
    {BinOp::Le, 0x80000000, 0x7FFFFFFF, 0},
    {BinOp::Ge, 0x80000000, 0x7FFFFFFF, 1},
    {BinOp::And, 2, 4, 1},
    {BinOp::And, 2, 0, 0},
    {BinOp::Or, 0, 0, 0},
    {BinOp::Or, 0, 0x80000000, 1},
};

TEST(VulkanLowering, S3_BinOpEdgeCases) {
  // Invocation i computes case i from operands read at 2i, 2i+1.
  std::vector<uint32_t> operands;
  std::vector<uint32_t> expected;
  Body body;
  const ExprPtr i = invocation_id(0);
  for (size_t c = 0; c < std::size(kBinCases); ++c) {
    operands.push_back(kBinCases[c].a);
    operands.push_back(kBinCases[c].b);
    expected.push_back(kBinCases[c].expected);
    body.push_back(if_(eq(i, u32(static_cast<uint32_t>(c))),
                       {store("out", i,
                              binary(kBinCases[c].op, load("in", mul(i, u32(2))),
                                     load("in", add(mul(i, u32(2)), u32(1)))))}));
  }
  const auto n = static_cast<uint32_t>(std::size(kBinCases));
  Case c{{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
          {1, 1, 1},
          body},
         n,
         true,
         {{"in", words(operands)}},
         {{"out", n}},
         {{"out", words(expected)}}};
  expect_case(c);
}

struct UnCase {
  UnOp op;
  uint32_t x, expected;
};

constexpr UnCase kUnCases[] = {
    {UnOp::Negate, 0x80000000, 0x80000000},
    {UnOp::Negate, 1, 0xFFFFFFFF},
    {UnOp::Negate, 0, 0},
    {UnOp::BitNot, 0, 0xFFFFFFFF},
    {UnOp::LogicalNot, 0, 1},
    {UnOp::LogicalNot, 0x80000000, 0},
    {UnOp::Popcount, 0xFFFFFFFF, 32},
    {UnOp::Popcount, 0xDEADBEEF, 24},
    {UnOp::Popcount, 0, 0},
    {UnOp::Clz, 0, 32},
    {UnOp::Clz, 1, 31},
    {UnOp::Clz, 0x80000000, 0},
    {UnOp::Ctz, 0, 32},
    {UnOp::Ctz, 1, 0},
    {UnOp::Ctz, 0x80000000, 31},
    {UnOp::ReverseBits, 1, 0x80000000},
    {UnOp::ReverseBits, 0xF0F0F0F0, 0x0F0F0F0F},
    {UnOp::ReverseBits, 0, 0},
};

TEST(VulkanLowering, S3_UnOpEdgeCases) {
  std::vector<uint32_t> operands;
  std::vector<uint32_t> expected;
  Body body;
  const ExprPtr i = invocation_id(0);
  for (size_t c = 0; c < std::size(kUnCases); ++c) {
    operands.push_back(kUnCases[c].x);
    expected.push_back(kUnCases[c].expected);
    body.push_back(if_(eq(i, u32(static_cast<uint32_t>(c))),
                       {store("out", i, unary(kUnCases[c].op, load("in", i)))}));
  }
  const auto n = static_cast<uint32_t>(std::size(kUnCases));
  Case c{{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)},
          {1, 1, 1},
          body},
         n,
         true,
         {{"in", words(operands)}},
         {{"out", n}},
         {{"out", words(expected)}}};
  expect_case(c);
}

struct CastCase {
  DataType from, to;
  std::vector<uint32_t> value, expected;  // Host words of one element.
};

// Every valid non-identity cell of the pinned cast table, hand-written.
const CastCase kCastCases[] = {
    {DataType::U32, DataType::I32, {0x80000000}, {0x80000000}},
    {DataType::U32, DataType::Bool, {0x80000000}, {1}},
    {DataType::U32, DataType::Bool, {0}, {0}},
    {DataType::U32, DataType::U64, {0xFFFFFFFF}, {0xFFFFFFFF, 0}},
    {DataType::U32, DataType::Vec2U32, {7}, {7, 7}},
    {DataType::U32, DataType::Vec4U32, {7}, {7, 7, 7, 7}},
    {DataType::I32, DataType::U32, {0xFFFFFFFB}, {0xFFFFFFFB}},
    {DataType::I32, DataType::Bool, {0xFFFFFFFB}, {1}},
    {DataType::I32, DataType::U64, {0xFFFFFFFB}, {0xFFFFFFFB, 0xFFFFFFFF}},
    {DataType::I32, DataType::U64, {5}, {5, 0}},
    {DataType::I32, DataType::Vec2U32, {0xFFFFFFFB}, {0xFFFFFFFB, 0xFFFFFFFB}},
    {DataType::I32, DataType::Vec4U32, {3}, {3, 3, 3, 3}},
    // A loaded Bool is word != 0, so 7 loads as true.
    {DataType::Bool, DataType::U32, {7}, {1}},
    {DataType::Bool, DataType::I32, {1}, {1}},
    {DataType::Bool, DataType::U64, {1}, {1, 0}},
    {DataType::Bool, DataType::Vec2U32, {1}, {1, 1}},
    {DataType::Bool, DataType::Vec4U32, {0}, {0, 0, 0, 0}},
    {DataType::U64, DataType::U32, {5, 9}, {5}},
    {DataType::U64, DataType::I32, {0xFFFFFFFF, 9}, {0xFFFFFFFF}},
    {DataType::U64, DataType::Bool, {0, 9}, {1}},
    {DataType::U64, DataType::Bool, {0, 0}, {0}},
    {DataType::U64, DataType::Vec2U32, {5, 9}, {5, 9}},
    {DataType::Vec2U32, DataType::U32, {5, 9}, {5}},
    {DataType::Vec2U32, DataType::I32, {5, 9}, {5}},
    {DataType::Vec2U32, DataType::Bool, {0, 1}, {1}},
    {DataType::Vec2U32, DataType::U64, {5, 9}, {5, 9}},
    {DataType::Vec4U32, DataType::U32, {5, 6, 7, 8}, {5}},
    {DataType::Vec4U32, DataType::I32, {5, 6, 7, 8}, {5}},
    {DataType::Vec4U32, DataType::Bool, {0, 0, 0, 8}, {1}},
    {DataType::Vec4U32, DataType::Bool, {0, 0, 0, 0}, {0}},
    {DataType::Vec4U32, DataType::U64, {5, 6, 7, 8}, {5, 6}},
    {DataType::Vec4U32, DataType::Vec2U32, {5, 6, 7, 8}, {5, 6}},
};

TEST(VulkanLowering, S2_CastTable) {
  for (const CastCase& cc : kCastCases) {
    SCOPED_TRACE(std::string(name_of(cc.from)) + " -> " + std::string(name_of(cc.to)));
    Case c{{{storage("in", 0, BufferAccess::ReadOnly, cc.from),
             storage("out", 1, BufferAccess::ReadWrite, cc.to)},
            {1, 1, 1},
            {store("out", u32(0), cast(cc.to, load("in", u32(0))))}},
           1,
           true,
           {{"in", words(cc.value)}},
           {{"out", cc.expected.size()}},
           {{"out", words(cc.expected)}}};
    expect_case(c);
  }
}

TEST(VulkanLowering, S2_LiteralsOfEveryType) {
  Case c{{{storage("u", 0, BufferAccess::ReadWrite),
           storage("i", 1, BufferAccess::ReadWrite, DataType::I32),
           storage("b", 2, BufferAccess::ReadWrite, DataType::Bool)},
          {1, 1, 1},
          {store("u", u32(0), u32(0xFFFFFFFF)), store("i", u32(0), i32(-2147483647 - 1)),
           store("i", u32(1), i32(-5)), store("i", u32(2), i32(5)),
           store("b", u32(0), boolean(true)), store("b", u32(1), boolean(false))}},
         1,
         true,
         {},
         {{"u", 1}, {"i", 3}, {"b", 2}},
         {{"u", words({0xFFFFFFFF})},
          {"i", words({0x80000000, 0xFFFFFFFB, 5})},
          {"b", words({1, 0})}}};
  expect_case(c);
}

}  // namespace
}  // namespace vyre::vulkan
