#include "spec/support/diagnostic_text.h"

namespace vyre {

std::string line_col(SourceLoc loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

std::string at_location(SourceLoc loc) {
  return loc.known() ? " at " + line_col(loc) : std::string();
}

std::string file_diagnostic(std::string_view file, SourceLoc loc, std::string_view rule,
                            std::string_view message) {
  std::string out(file);
  out += ":" + line_col(loc) + ": ";
  if (!rule.empty()) {
    out += rule;
    out += ": ";
  }
  out += message;
  return out;
}

}  // namespace vyre
