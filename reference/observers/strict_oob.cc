#include "reference/observers/strict_oob.h"

#include <string>

namespace vyre::reference {

void StrictOutOfBounds::on_out_of_bounds(const BatchView& batch, const OutOfBoundsEvent& event) {
  if (!log_.wants_detail()) {
    log_.count();
    return;
  }
  const std::string& buffer = program_.buffers[event.buffer].name;
  Violation v;
  v.kind = Violation::Kind::OutOfBounds;
  v.buffer = buffer;
  v.index = event.index;
  v.loc = event.loc;
  v.invocations.push_back(shape_.invocation_xyz(batch.invocation[event.lane]));
  v.message = "out-of-bounds " + std::string(name_of(event.kind)) + " of `" + buffer + "`[" +
              std::to_string(event.index) + "] (the buffer has " +
              std::to_string(event.element_count) + " elements) by invocation " +
              xyz_text(v.invocations.front()) + " at " + where_text(event.loc) +
              "; the access was masked (loads read 0, stores and atomics do nothing), and strict "
              "mode reports every such access. Fix: guard the index with buflen(" +
              buffer + ")";
  log_.add(std::move(v));
}

}  // namespace vyre::reference
