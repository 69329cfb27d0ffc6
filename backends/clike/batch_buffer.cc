// A batch's bound buffer before it is placed.
#include "backends/clike/batch_buffer.h"

#include "backends/clike/dispatch_limits.h"

namespace vyre::clike {

BatchBuffer batch_buffer(const BoundBuffer& decl, const BufferSet& inputs, bool named_scratch) {
  BatchBuffer b;
  b.decl = &decl;
  b.bytes = &inputs.at(decl.name);
  b.size = device_buffer_bytes(b.bytes->size());
  b.output = decl.access == BufferAccess::ReadWrite;
  b.scratch = b.output && named_scratch;
  return b;
}

}  // namespace vyre::clike
