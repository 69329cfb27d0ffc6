// Text a plugin hands the host (messages, device and driver names, buffer
// names in diagnostics) made valid UTF-8 at the boundary: reports are JSON
// and XML, which cannot carry arbitrary bytes.
#pragma once

#include <string>
#include <string_view>

namespace vyre::plugin {

/// `bytes` with every byte that does not start or continue a well-formed
/// UTF-8 sequence (stray continuations, overlong forms, surrogates, code
/// points past U+10FFFF, truncated sequences) replaced by U+FFFD.
std::string valid_utf8(std::string_view bytes);

}  // namespace vyre::plugin
