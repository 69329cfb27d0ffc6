// Where an IR node came from in a text file; line 0 means "built in code".
#pragma once

#include <cstdint>

namespace vyre {

/// 1-based line and column of the token that starts a node, or {0, 0}.
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
  bool known() const { return line != 0; }
};

}  // namespace vyre
