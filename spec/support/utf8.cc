#include "spec/support/utf8.h"

namespace vyre {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// Length of the well-formed sequence at the start of `s`, or 0.
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

std::optional<CodePoint> decode_utf8(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const size_t length = sequence_length(s);
  if (length == 0) return std::nullopt;
  const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(s[i])); };
  // The lead byte keeps 7, 5, 4 or 3 payload bits; continuations 6 each.
  constexpr uint32_t kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  uint32_t value = byte(0) & kLeadMask[length];
  for (size_t i = 1; i < length; ++i) value = (value << 6) | (byte(i) & 0x3F);
  return CodePoint{value, length};
}

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

}  // namespace vyre
