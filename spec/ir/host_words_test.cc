#include "spec/ir/host_words.h"

#include <gtest/gtest.h>

namespace vyre {
namespace {

// Expected bytes are written out by hand: the host ABI is little-endian
// (pinned spec section 1).
TEST(HostWords, WordsAreLittleEndian) {
  EXPECT_EQ(to_bytes({0x04030201u, 0xA0B0C0D0u}),
            (ByteBuffer{0x01, 0x02, 0x03, 0x04, 0xD0, 0xC0, 0xB0, 0xA0}));
  EXPECT_EQ(to_words(ByteBuffer{0x01, 0x02, 0x03, 0x04, 0xFF}),
            (std::vector<uint32_t>{0x04030201u}));
  EXPECT_TRUE(to_words(ByteBuffer{0x01, 0x02, 0x03}).empty());
}

TEST(HostWords, WordAtPadsWithZeros) {
  const ByteBuffer bytes = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06};
  EXPECT_EQ(word_at(bytes, 0), 0x04030201u);
  EXPECT_EQ(word_at(bytes, 1), 0x00000605u);
  EXPECT_EQ(word_at(bytes, 2), 0u);
  EXPECT_EQ(word_at(bytes, uint64_t{1} << 62), 0u);
}

TEST(HostWords, WideValuesRoundTrip) {
  ByteBuffer out;
  append_le(out, 0x0807060504030201ull, 8);
  EXPECT_EQ(out, (ByteBuffer{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(read_le(out), 0x0807060504030201ull);
  append_le(out, 0xABCD, 2);
  EXPECT_EQ(out.size(), 10u);
  EXPECT_EQ(zero_words(3), ByteBuffer(12, 0));
}

TEST(HostAbi, InvocationCountsSaturateToNullopt) {
  EXPECT_EQ(axis_product({4, 2, 3}), 24u);
  EXPECT_EQ(dispatch_invocations({4, 2, 3}, Grid{{5, 1, 2}}), 240u);
  EXPECT_EQ(dispatch_invocations({0xFFFFFFFFu, 0xFFFFFFFFu, 1}, Grid{{1, 1, 1}}),
            0xFFFFFFFE00000001ull);
  EXPECT_FALSE(dispatch_invocations({0xFFFFFFFFu, 0xFFFFFFFFu, 2}, Grid{{1, 1, 1}}).has_value());
  EXPECT_FALSE(
      dispatch_invocations({0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}, Grid{{0xFFFFFFFFu, 1, 1}})
          .has_value());
}

}  // namespace
}  // namespace vyre
