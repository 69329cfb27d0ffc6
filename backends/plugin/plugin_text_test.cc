#include "backends/plugin/plugin_text.h"

#include <gtest/gtest.h>

namespace vyre::plugin {
namespace {

constexpr std::string_view kFffd = "\xEF\xBF\xBD";

TEST(PluginText, KeepsValidUtf8AsIs) {
  // 'a', U+00E9, U+20AC, U+1F600: one to four bytes.
  const std::string text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  EXPECT_EQ(valid_utf8(text), text);
}

TEST(PluginText, ReplacesEachInvalidByte) {
  const std::string fffd(kFffd);
  // Unicode table 3-7: each of these is ill-formed.
  EXPECT_EQ(valid_utf8("\xFF"), fffd);                                   // never a lead byte
  EXPECT_EQ(valid_utf8("a\x80z"), "a" + fffd + "z");                     // stray continuation
  EXPECT_EQ(valid_utf8("\xC0\xAF"), fffd + fffd);                        // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);             // surrogate U+D800
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
  EXPECT_EQ(valid_utf8("ok\xE2\x82"), "ok" + fffd + fffd);               // truncated at the end
}

}  // namespace
}  // namespace vyre::plugin
