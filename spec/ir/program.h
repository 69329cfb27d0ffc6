// A vyre Program: buffer declarations, workgroup size and the entry body. The
// dispatch grid is not part of it (pinned spec section 1).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/node.h"

namespace vyre {

/// One buffer the program reads or writes.
struct BufferDecl {
  std::string name;
  uint32_t binding = 0;
  BufferAccess access = BufferAccess::ReadOnly;
  DataType element = DataType::U32;
  /// Element count; required and positive for Workgroup buffers, 0 (sized by
  /// the host at dispatch) or a declared size otherwise.
  uint32_t count = 0;
  SourceLoc loc = {};

  bool operator==(const BufferDecl& o) const {
    return name == o.name && binding == o.binding && access == o.access && element == o.element &&
           count == o.count;
  }
};

/// A complete compute program.
struct Program {
  std::vector<BufferDecl> buffers;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  Body entry;
  /// Where the `program` keyword stands; the location of whole-program facts (V019).
  SourceLoc loc = {};
  /// Where `workgroup_size` was written; unknown when the text left the
  /// default. Both locations have `= {}` so that the many `Program{buffers,
  /// size, entry}` initialisers need not name them (-Wmissing-field-initializers).
  SourceLoc workgroup_size_loc = {};

  /// The declaration of `name`, or nullptr.
  const BufferDecl* buffer(std::string_view name) const;
};

/// Structural equality; source locations are ignored.
bool operator==(const Program& a, const Program& b);

}  // namespace vyre
