// Constant-time buffer lookup by name for the rule families, so that a program
// with many buffers and many accesses stays linear to validate.
#pragma once

#include <string_view>
#include <unordered_map>

#include "spec/ir/program.h"

namespace vyre {

/// The program's buffers by name; the first declaration of a name wins, as in
/// Program::buffer (a duplicate is V001's to report).
class BufferTable {
 public:
  explicit BufferTable(const Program& program);
  /// The declaration named `name`, or nullptr.
  const BufferDecl* find(std::string_view name) const;

 private:
  std::unordered_map<std::string_view, const BufferDecl*> by_name_;
};

}  // namespace vyre
