// UTF-8 as the suite's text outputs need it: reports are JSON, XML and
// Markdown, and the text that reaches them (plugin messages, device names,
// buffer names) may be any bytes. One walker, for every layer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vyre {

/// One well-formed UTF-8 sequence: its code point and its length in bytes.
struct CodePoint {
  uint32_t value = 0;
  size_t length = 0;
};

/// The well-formed UTF-8 sequence at the start of `s` (Unicode table 3-7: no
/// stray continuations, overlong forms, surrogates, code points past
/// U+10FFFF or truncated sequences); nullopt when `s` is empty or does not
/// start with one.
std::optional<CodePoint> decode_utf8(std::string_view s);

/// `bytes` with every byte that does not start or continue a well-formed
/// sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view bytes);

}  // namespace vyre
