// The executables' operator new (huge_page_new.cc): large blocks start on a
// huge page and hold what is put in them, small ones come from malloc, and an
// impossible size fails as the standard says (never a small block for a
// size whose rounding wrapped). Whether Linux then backs a block with huge
// pages is its choice, not checked here.
#include <gtest/gtest.h>

#include <cstdint>
#include <new>
#include <vector>

#include "spec/support/huge_pages.h"

namespace {

using vyre::kHugePageBytes;

TEST(HugePageNew, LargeBlocksStartOnAHugePageAndHoldTheirBytes) {
  std::vector<uint8_t> big((std::size_t{5} << 20) + 3, 0xA5);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.data()) % kHugePageBytes, 0u);
  big.back() = 0x5A;
  const std::vector<uint8_t> copy = big;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(copy.data()) % kHugePageBytes, 0u);
  EXPECT_EQ(copy, big);
  EXPECT_EQ(copy.front(), 0xA5);
  EXPECT_EQ(copy.back(), 0x5A);
}

TEST(HugePageNew, SmallBlocksAreUsableAndDistinct) {
  std::vector<std::vector<int>> blocks;
  for (int i = 0; i < 1000; ++i) blocks.emplace_back(static_cast<size_t>(i % 17), i);
  for (int i = 0; i < 1000; ++i) {
    for (int v : blocks[static_cast<size_t>(i)]) ASSERT_EQ(v, i);
  }
  int* zero = new int[0];
  EXPECT_NE(zero, nullptr);
  delete[] zero;
}

TEST(HugePageNew, AnImpossibleSizeThrowsOrIsNull) {
  for (std::size_t bytes : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - kHugePageBytes + 2, SIZE_MAX / 2}) {
    EXPECT_THROW(::operator delete(::operator new(bytes)), std::bad_alloc) << bytes;
    EXPECT_EQ(::operator new(bytes, std::nothrow), nullptr) << bytes;
    EXPECT_EQ(::operator new[](bytes, std::nothrow), nullptr) << bytes;
  }
}

}  // namespace
