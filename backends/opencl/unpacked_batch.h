// A batch whose outputs are too large to pack into one buffer of the device,
// run as one run_dispatch per run and compared on the host.
#pragma once

#include <string>

#include "backends/opencl/batch_run.h"

namespace vyre::opencl {

/// The batch `r` as one run_dispatch per run on `queue` with buffers from
/// `pool`, each run's outputs judged against run 0's on the host (with
/// r.options.scratch left out), r.perturbed_run applied to the host bytes.
BatchOutcome run_as_dispatches(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                               const std::string& device_name, const BatchRequest& r);

}  // namespace vyre::opencl
