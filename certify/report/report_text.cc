#include "certify/report/report_text.h"

#include <cstdint>

#include "spec/support/utf8.h"

namespace vyre::certify {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

/// XML 1.0's Char production (surrogates cannot occur in valid UTF-8).
bool allowed_in_xml(uint32_t c) {
  if (c < 0x20) return c == 0x9 || c == 0xA || c == 0xD;
  return c != 0xFFFE && c != 0xFFFF;
}

}  // namespace

std::string xml_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::string_view rest = text; !rest.empty();) {
    const std::optional<CodePoint> decoded = decode_utf8(rest);
    if (!decoded) {
      out += kReplacement;
      rest.remove_prefix(1);
      continue;
    }
    const auto [code_point, length] = *decoded;
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
  const std::string valid = valid_utf8(text);
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
