#include "spec/text/names.h"

#include "spec/text/keywords.h"

namespace vyre::text {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s) {
    if (!is_ident_char(c)) return false;
  }
  return true;
}

constexpr char kHexDigits[] = "0123456789abcdef";

}  // namespace

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}

bool is_bare_name(std::string_view name) {
  return is_identifier(name) && !is_reserved_word(name);
}

bool is_bare_op_id(std::string_view id) {
  size_t start = 0;
  while (true) {
    size_t dot = id.find('.', start);
    if (!is_identifier(id.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

void append_string_literal(std::string& out, std::string_view bytes) {
  out += '"';
  for (char c : bytes) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte >= 0x7F) {
      out += "\\x";
      out += kHexDigits[byte >> 4];
      out += kHexDigits[byte & 0xF];
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_name(std::string& out, std::string_view name) {
  if (is_bare_name(name)) {
    out += name;
  } else {
    append_string_literal(out, name);
  }
}

void append_op_id(std::string& out, std::string_view id) {
  if (is_bare_op_id(id)) {
    out += id;
  } else {
    append_string_literal(out, id);
  }
}

}  // namespace vyre::text
