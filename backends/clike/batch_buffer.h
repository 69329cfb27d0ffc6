// One bound buffer of a batch of runs (Backend::dispatch_runs) as every
// C-like backend lays it out before placing it on its device: its bytes, its
// device size, and whether each run writes a copy of its own that the
// caller judges. Each backend's binding adds where the buffer lives.
#pragma once

#include <cstdint>

#include "backends/clike/entry_interface.h"
#include "spec/ir/host_abi.h"

namespace vyre::clike {

/// One bound buffer of a batch.
struct BatchBuffer {
  const BoundBuffer* decl = nullptr;
  const ByteBuffer* bytes = nullptr;  ///< Its initial bytes, among the inputs.
  uint64_t size = 0;                  ///< Device bytes (device_buffer_bytes).
  /// read_write: each run writes a copy of its own, compared with run 0's.
  bool output = false;
  /// An output the caller does not judge (BatchOptions::scratch): left out
  /// of the comparison with run 0 and of a differing run's readback.
  bool scratch = false;
};

/// `decl` with its bytes in `inputs` (which passed check_host_inputs, so
/// they hold it); `named_scratch` when the caller's BatchOptions::scratch
/// names it.
BatchBuffer batch_buffer(const BoundBuffer& decl, const BufferSet& inputs, bool named_scratch);

}  // namespace vyre::clike
