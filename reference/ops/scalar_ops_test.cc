// The operator table against hand-written spec values (SEMANTICS S3) and
// against the independent implementation (independent_ops.h) on every u8 pair,
// every pair of edge values and seeded u32 pairs.
#include "reference/ops/scalar_ops.h"

#include <gtest/gtest.h>

#include "reference/ops/independent_ops.h"
#include "reference/ops/witnesses.h"

namespace vyre::reference {
namespace {

constexpr int kSeededPairs = 200'000;

TEST(ScalarOps, Semantics_S3_EdgeOutcomesFromTheSpec) {
  EXPECT_EQ(apply(BinOp::Add, 0xFFFFFFFFu, 1u), 0u);
  EXPECT_EQ(apply(BinOp::Sub, 0u, 1u), 0xFFFFFFFFu);
  EXPECT_EQ(apply(BinOp::Mul, 0x10000u, 0x10000u), 0u);
  EXPECT_EQ(apply(BinOp::Mul, 0xFFFFFFFFu, 0xFFFFFFFFu), 1u);
  EXPECT_EQ(apply(BinOp::Div, 7u, 0u), 0u);
  EXPECT_EQ(apply(BinOp::Mod, 7u, 0u), 0u);
  EXPECT_EQ(apply(BinOp::Div, 0xFFFFFFFFu, 2u), 0x7FFFFFFFu);
  EXPECT_EQ(apply(BinOp::Shl, 1u, 32u), 1u);
  EXPECT_EQ(apply(BinOp::Shl, 1u, 33u), 2u);
  EXPECT_EQ(apply(BinOp::Shr, 0x80000000u, 31u), 1u);
  EXPECT_EQ(apply(BinOp::Shr, 0x80000000u, 0xFFFFFFFFu), 1u);
  EXPECT_EQ(apply(BinOp::Lt, 0x80000000u, 1u), 0u);  // unsigned: not negative
  EXPECT_EQ(apply(BinOp::Ge, 0x80000000u, 1u), 1u);
  EXPECT_EQ(apply(BinOp::And, 2u, 4u), 1u);  // truthiness, not bits
  EXPECT_EQ(apply(BinOp::Or, 0u, 0x80000000u), 1u);
  EXPECT_EQ(apply(UnOp::Negate, 0x80000000u), 0x80000000u);
  EXPECT_EQ(apply(UnOp::Negate, 1u), 0xFFFFFFFFu);
  EXPECT_EQ(apply(UnOp::Clz, 0u), 32u);
  EXPECT_EQ(apply(UnOp::Ctz, 0u), 32u);
  EXPECT_EQ(apply(UnOp::Clz, 1u), 31u);
  EXPECT_EQ(apply(UnOp::Ctz, 0x80000000u), 31u);
  EXPECT_EQ(apply(UnOp::Popcount, 0xDEADBEEFu), 24u);
  EXPECT_EQ(apply(UnOp::ReverseBits, 1u), 0x80000000u);
  EXPECT_EQ(apply(UnOp::ReverseBits, 0xF0F0F0F0u), 0x0F0F0F0Fu);
  EXPECT_EQ(apply(UnOp::LogicalNot, 0x80000000u), 0u);
}

TEST(ScalarOps, Semantics_S5_AtomicEdgeOutcomes) {
  EXPECT_EQ(apply(AtomicOp::Add, 0xFFFFFFFFu, 0u, 2u), 1u);
  EXPECT_EQ(apply(AtomicOp::Min, 0x80000000u, 0u, 1u), 1u);
  EXPECT_EQ(apply(AtomicOp::Max, 0x80000000u, 0u, 1u), 0x80000000u);
  EXPECT_EQ(apply(AtomicOp::CompareExchange, 5u, 5u, 9u), 9u);
  EXPECT_EQ(apply(AtomicOp::CompareExchange, 5u, 4u, 9u), 5u);
  EXPECT_EQ(apply(AtomicOp::Exchange, 5u, 0u, 9u), 9u);
}

template <typename F>
void for_each_pair(F&& check) {
  for (uint32_t a = 0; a < 256; ++a) {
    for (uint32_t b = 0; b < 256; ++b) check(a, b);
  }
  for (uint32_t a : kEdgeValues) {
    for (uint32_t b : kEdgeValues) check(a, b);
  }
  WitnessStream w(0x5EED0001);
  for (int i = 0; i < kSeededPairs; ++i) check(w.next(), w.next());
}

TEST(ScalarOps, EveryBinOpMatchesTheIndependentImplementation) {
  for (BinOp op : all_bin_ops()) {
    int failures = 0;
    for_each_pair([&](uint32_t a, uint32_t b) {
      const uint32_t expected = independent::bin(op, a, b);
      if (apply(op, a, b) != expected && ++failures <= 3) {
        ADD_FAILURE() << name_of(op) << "(" << a << ", " << b << ") = " << apply(op, a, b)
                      << ", independent: " << expected;
      }
    });
  }
}

TEST(ScalarOps, EveryUnOpMatchesTheIndependentImplementation) {
  for (UnOp op : all_un_ops()) {
    int failures = 0;
    for_each_pair([&](uint32_t a, uint32_t b) {
      for (uint32_t x : {a, b ^ (a << 8)}) {
        const uint32_t expected = independent::un(op, x);
        if (apply(op, x) != expected && ++failures <= 3) {
          ADD_FAILURE() << name_of(op) << "(" << x << ") = " << apply(op, x)
                        << ", independent: " << expected;
        }
      }
    });
  }
}

TEST(ScalarOps, EveryAtomicOpMatchesTheIndependentImplementation) {
  for (AtomicOp op : all_atomic_ops()) {
    int failures = 0;
    for_each_pair([&](uint32_t old, uint32_t value) {
      // expected: equal to old half the time, so CompareExchange takes both paths.
      for (uint32_t expected : {old, value}) {
        const uint32_t want = independent::atomic(op, old, expected, value);
        if (apply(op, old, expected, value) != want && ++failures <= 3) {
          ADD_FAILURE() << name_of(op) << "(old " << old << ", expected " << expected << ", value "
                        << value << ") = " << apply(op, old, expected, value)
                        << ", independent: " << want;
        }
      }
    });
  }
}

TEST(ScalarOps, TablesFollowTheDefFiles) {
  // A row in the wrong place would give an op another op's semantics.
  EXPECT_EQ(kBinFns[static_cast<size_t>(BinOp::Div)](6, 3), 2u);
  EXPECT_EQ(kBinFns[static_cast<size_t>(BinOp::Or)](0, 5), 1u);
  EXPECT_EQ(kUnFns[static_cast<size_t>(UnOp::Ctz)](8), 3u);
  EXPECT_EQ(kAtomicFns[static_cast<size_t>(AtomicOp::Xor)](6, 0, 3), 5u);
  EXPECT_EQ(kBinFns.size(), all_bin_ops().size());
  EXPECT_EQ(kUnFns.size(), all_un_ops().size());
  EXPECT_EQ(kAtomicFns.size(), all_atomic_ops().size());
}

}  // namespace
}  // namespace vyre::reference
