#include "spec/support/huge_pages.h"

#include <gtest/gtest.h>

namespace vyre {
namespace {

TEST(HugePages, ReservesWithoutTouchingAndKeepsTheBytesWritten) {
  for (const size_t bytes : {size_t{100}, size_t{8} << 20}) {
    std::vector<uint8_t> buffer;
    reserve_on_huge_pages(buffer, bytes);
    EXPECT_TRUE(buffer.empty());
    EXPECT_GE(buffer.capacity(), bytes);
    const uint8_t* reserved = buffer.data();
    buffer.resize(bytes, 0x5A);
    EXPECT_EQ(buffer.data(), reserved) << "filled within the reservation, not reallocated";
    EXPECT_EQ(buffer.front(), 0x5A);
    EXPECT_EQ(buffer.back(), 0x5A);
  }
}

}  // namespace
}  // namespace vyre
