// The checks run() makes before it allocates anything big (SEMANTICS S1): the
// grid and the invocation count, every host buffer's presence and size, and
// the memory the run would need, against RunOptions' limits. A tiny file that
// asks for gigabytes or 2^32 invocations is refused here with an Error.
#pragma once

#include <cstdint>
#include <vector>

#include "reference/dispatch_shape.h"
#include "reference/interpreter.h"
#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"
#include "spec/ir/uniform_limit.h"
#include "spec/support/result.h"

namespace vyre::reference {

/// Checks the grid and workgroup size; the shape of the dispatch.
Result<DispatchShape> check_dispatch(const Program& program, const Grid& grid,
                                     const RunOptions& options);

/// What the inputs give each buffer.
struct BufferSizes {
  /// Element counts (BufLen) per buffer, in Program::buffers order.
  std::vector<uint64_t> element_counts;
  /// Bytes of all host buffers (the inputs the run reads).
  uint64_t host_bytes = 0;
  /// Bytes of the ReadWrite buffers, which the run copies into its outputs.
  uint64_t output_bytes = 0;
  /// Bytes of one workgroup's workgroup buffers.
  uint64_t workgroup_bytes = 0;
};

/// Checks that every non-workgroup buffer is given, with a valid size, and
/// nothing else is; workgroup buffers are sized by their declared count.
Result<BufferSizes> check_inputs(const Program& program, const BufferSet& inputs);

/// Fails when `bytes` exceeds options.max_memory_bytes; `what` says for what.
Result<Ok> check_memory(uint64_t bytes, const RunOptions& options, const std::string& what);

}  // namespace vyre::reference
