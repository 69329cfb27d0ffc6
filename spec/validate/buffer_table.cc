#include "spec/validate/buffer_table.h"

namespace vyre {

BufferTable::BufferTable(const Program& program) {
  for (const BufferDecl& b : program.buffers) by_name_.try_emplace(b.name, &b);
}

const BufferDecl* BufferTable::find(std::string_view name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

}  // namespace vyre
