#include "spec/support/utf8.h"

#include <gtest/gtest.h>

namespace vyre {
namespace {

constexpr std::string_view kFffd = "\xEF\xBF\xBD";

TEST(Utf8, KeepsValidUtf8AsIs) {
  // 'a', U+00E9, U+20AC, U+1F600: one to four bytes.
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  EXPECT_EQ(valid_utf8(text), text);
}

TEST(Utf8, ReplacesEachInvalidByte) {
  const std::string fffd(kFffd);
  // Unicode table 3-7: each of these is ill-formed.
  EXPECT_EQ(valid_utf8("\xFF"), fffd);                                   // never a lead byte
  EXPECT_EQ(valid_utf8("a\x80z"), "a" + fffd + "z");                     // stray continuation
  EXPECT_EQ(valid_utf8("\xC0\xAF"), fffd + fffd);                        // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);             // surrogate U+D800
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
  EXPECT_EQ(valid_utf8("ok\xE2\x82"), "ok" + fffd + fffd);               // truncated at the end
}

TEST(Utf8, DecodesCodePointsOfEveryLength) {
  // Values from the Unicode code charts, not from the decoder.
  const struct {
    std::string_view bytes;
    uint32_t value;
    size_t length;
  } rows[] = {{"a", 0x61, 1},
              {"\xC3\xA9", 0xE9, 2},
              {"\xE2\x82\xAC", 0x20AC, 3},
              {"\xF0\x9F\x98\x80", 0x1F600, 4},
              {"\xF4\x8F\xBF\xBFx", 0x10FFFF, 4}};
  for (const auto& row : rows) {
    const std::optional<CodePoint> c = decode_utf8(row.bytes);
    ASSERT_TRUE(c.has_value()) << row.value;
    EXPECT_EQ(c->value, row.value);
    EXPECT_EQ(c->length, row.length);
  }
  EXPECT_FALSE(decode_utf8("").has_value());
  EXPECT_FALSE(decode_utf8("\xC0\xAF").has_value());
  EXPECT_FALSE(decode_utf8("\xE2\x82").has_value());
}

}  // namespace
}  // namespace vyre
