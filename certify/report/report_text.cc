#include "certify/report/report_text.h"

#include <cstdint>

#include "backends/plugin/plugin_text.h"

namespace vyre::certify {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// The code point of the valid UTF-8 sequence at the start of `s`, and its length.
std::pair<uint32_t, size_t> decode(std::string_view s) {
  const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(s[i])); };
  const uint32_t lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  if (lead < 0xE0) return {((lead & 0x1F) << 6) | (byte(1) & 0x3F), 2};
  if (lead < 0xF0) return {((lead & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F), 3};
  return {
      ((lead & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) | (byte(3) & 0x3F),
      4};
}

/// XML 1.0's Char production (surrogates cannot occur in valid UTF-8).
bool allowed_in_xml(uint32_t c) {
  if (c < 0x20) return c == 0x9 || c == 0xA || c == 0xD;
  return c != 0xFFFE && c != 0xFFFF;
}

}  // namespace

std::string xml_text(std::string_view text) {
  const std::string valid = plugin::valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (std::string_view rest = valid; !rest.empty();) {
    const auto [code_point, length] = decode(rest);
    switch (code_point) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (allowed_in_xml(code_point)) {
          out += rest.substr(0, length);
        } else {
          out += kReplacement;
        }
    }
    rest.remove_prefix(length);
  }
  return out;
}

std::string markdown_text(std::string_view text) {
  const std::string valid = plugin::valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '|':
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
        out += '\\';
        out += c;
        break;
      case '\n':
      case '\r':
      case '\t':
        out += ' ';
        break;
      default:
        // Other controls would garble a terminal or a renderer.
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    }
  }
  return out;
}

}  // namespace vyre::certify
