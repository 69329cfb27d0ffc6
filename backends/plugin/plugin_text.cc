#include "backends/plugin/plugin_text.h"

#include <cstdint>

namespace vyre::plugin {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// Length of the well-formed UTF-8 sequence at the start of `s` (Unicode
/// table 3-7), or 0 when it is not one.
size_t sequence_length(std::string_view s) {
  const auto at = [&](size_t i) { return static_cast<uint8_t>(s[i]); };
  const auto in = [&](size_t i, uint8_t lo, uint8_t hi) {
    return i < s.size() && at(i) >= lo && at(i) <= hi;
  };
  const uint8_t lead = at(0);
  if (lead <= 0x7F) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return in(1, 0x80, 0xBF) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const uint8_t lo = lead == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
    const uint8_t hi = lead == 0xED ? 0x9F : 0xBF;  // no surrogates
    return in(1, lo, hi) && in(2, 0x80, 0xBF) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const uint8_t lo = lead == 0xF0 ? 0x90 : 0x80;  // no overlong forms
    const uint8_t hi = lead == 0xF4 ? 0x8F : 0xBF;  // nothing past U+10FFFF
    return in(1, lo, hi) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string valid_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  while (!bytes.empty()) {
    const size_t length = sequence_length(bytes);
    if (length == 0) {
      out += kReplacement;
      bytes.remove_prefix(1);
    } else {
      out += bytes.substr(0, length);
      bytes.remove_prefix(length);
    }
  }
  return out;
}

}  // namespace vyre::plugin
