// The CPU twin of the dataflow engine: a plain FIFO BFS per source that asks
// the transfer function's CPU side about every edge. It shares no code with
// the engine's IR programs, so parity between them means something.
#pragma once

#include <vector>

#include "archetypes/dataflow/dataflow_input.h"
#include "archetypes/dataflow/transfer_function.h"
#include "reference/graph/finding.h"
#include "spec/support/result.h"

namespace vyre::dataflow {

/// Every (source, sink, depth, source_idx) the engine must report, in
/// canonical order. Errors: validate_input failures.
Result<std::vector<graph::Finding>> dataflow_oracle(const DataflowInput& input,
                                                    const TransferFunction& transfer);

}  // namespace vyre::dataflow
