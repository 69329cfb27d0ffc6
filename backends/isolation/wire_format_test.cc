// The payload encoding, byte for byte, and a reader that cannot be pushed
// past its payload.
#include "backends/isolation/wire_format.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace vyre::isolation {
namespace {

TEST(WireFormat, IntegersAreLittleEndian) {
  WireWriter w;
  w.u8(0xab);
  w.u32(0x01020304);
  w.u64(0x1122334455667788);
  std::vector<uint8_t> expected = {0xab, 0x04, 0x03, 0x02, 0x01, 0x88, 0x77,
                                   0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
  EXPECT_EQ(w.take(), expected);
}

TEST(WireFormat, DoublesTravelAsTheirBits) {
  WireWriter w;
  w.f64(1.0);  // IEEE 754: 0x3FF0000000000000.
  EXPECT_EQ(w.take(), (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
}

TEST(WireFormat, StringsAndBytesAreLengthPrefixed) {
  WireWriter w;
  w.text("ab");
  w.bytes(std::vector<uint8_t>{7});
  std::vector<uint8_t> expected = {2, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 1, 0, 0, 0, 0, 0, 0, 0, 7};
  EXPECT_EQ(w.take(), expected);
}

TEST(WireFormat, TruncatedReadIsAnErrorAndLaterReadsAreZero) {
  std::vector<uint8_t> payload = {1, 2, 3};
  WireReader r(payload);
  EXPECT_EQ(r.u32(), 0u);
  EXPECT_EQ(r.u8(), 0u);
  Result<Ok> done = r.finish();
  ASSERT_FALSE(done.ok());
  EXPECT_EQ(done.error().message, "truncated: needs 4 more bytes at offset 0 of 3");
}

TEST(WireFormat, HugeLengthIsRejectedWithoutAllocating) {
  WireWriter w;
  w.u64(uint64_t{1} << 62);
  std::vector<uint8_t> payload = w.take();
  WireReader r(payload);
  EXPECT_EQ(r.text(), "");
  ASSERT_FALSE(r.finish().ok());
  EXPECT_NE(r.finish().error().message.find("truncated"), std::string::npos);
}

TEST(WireFormat, LeftoverBytesAreAnError) {
  std::vector<uint8_t> payload = {1, 2};
  WireReader r(payload);
  r.u8();
  ASSERT_FALSE(r.finish().ok());
  EXPECT_EQ(r.finish().error().message, "1 unexpected bytes after the message");
}

TEST(WireFormat, DuplicateBufferNamesAreRejected) {
  WireWriter w;
  w.u32(2);
  for (int i = 0; i < 2; ++i) {
    w.text("out");
    w.bytes(std::vector<uint8_t>{1});
  }
  std::vector<uint8_t> payload = w.take();
  WireReader r(payload);
  r.buffers();
  ASSERT_FALSE(r.finish().ok());
  EXPECT_EQ(r.finish().error().message, "buffer 'out' appears twice");
}

RC_GTEST_PROP(WireFormat, BufferSetsRoundTrip, (const BufferSet& buffers)) {
  WireWriter w;
  w.buffers(buffers);
  std::vector<uint8_t> payload = w.take();
  WireReader r(payload);
  BufferSet back = r.buffers();
  RC_ASSERT(r.finish().ok());
  RC_ASSERT(back == buffers);
}

RC_GTEST_PROP(WireFormat, EveryTruncationFailsCleanly, (const BufferSet& buffers)) {
  RC_PRE(!buffers.empty());
  WireWriter w;
  w.buffers(buffers);
  std::vector<uint8_t> payload = w.take();
  size_t cut = *rc::gen::inRange<size_t>(0, payload.size());
  WireReader r(std::span<const uint8_t>(payload).first(cut));
  r.buffers();
  RC_ASSERT(!r.finish().ok());
}

}  // namespace
}  // namespace vyre::isolation
