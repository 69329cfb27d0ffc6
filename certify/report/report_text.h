// Text from backends and users (messages, device names, paths) made safe for
// the report formats: any bytes in, valid UTF-8 that cannot break the
// surrounding XML or Markdown out.
#pragma once

#include <string>
#include <string_view>

namespace vyre::certify {

/// `text` as XML 1.0 character data or attribute value: invalid UTF-8 and
/// characters XML 1.0 forbids (controls other than tab, newline and carriage
/// return; U+FFFE, U+FFFF) become U+FFFD; & < > " ' are escaped.
std::string xml_text(std::string_view text);

/// `text` as Markdown prose or a table cell: valid UTF-8, on one line, with
/// the characters that would end a cell, open HTML or start emphasis or code
/// (| < > & \ ` * _ [ ]) escaped.
std::string markdown_text(std::string_view text);

}  // namespace vyre::certify
