// A batch whose outputs are too large to pack into one buffer of the device
// (batch_run.cc), run as one run_dispatch per run and compared on the host.
#include "backends/opencl/unpacked_batch.h"

#include <algorithm>

#include "backends/opencl/dispatch_run.h"

namespace vyre::opencl {
namespace {

/// Test only: word 0 of the first output with at least 4 bytes overwritten,
/// as Batch::perturb does on the device.
void perturb_outputs(const KernelInterface& iface, BufferSet& outputs) {
  for (const KernelBuffer& b : iface.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    ByteBuffer& bytes = outputs.at(b.name);
    if (bytes.size() < 4) continue;
    std::fill(bytes.begin(), bytes.begin() + 4, uint8_t{0x5A});
    return;
  }
}

}  // namespace

BatchOutcome run_as_dispatches(const OpenClApi& api, ClQueue& queue, BufferPool& pool,
                               const std::string& device_name, const BatchRequest& r) {
  BatchOutcome outcome;
  outcome.status = Status::Ok;
  const DispatchRequest request{r.kernel, r.iface, r.inputs, r.grid, r.fence_timeout};
  const uint32_t runs = std::max<uint32_t>(r.options.runs, 1);
  for (uint32_t run = 0; run < runs; ++run) {
    DispatchOutcome one = run_dispatch(api, queue, pool, device_name, request);
    outcome.timing.device_ms =
        add_device_ms(outcome.timing.device_ms, one.timing.device_ms, run == 0);
    ++outcome.submissions;
    report_submission(r.options);
    if (one.status != Status::Ok) {
      outcome.status = one.status;
      outcome.message = std::move(one.message);
      outcome.failed_run = run;
      outcome.first_outputs.clear();
      return outcome;
    }
    ++outcome.dispatches;
    if (r.perturbed_run == run) perturb_outputs(r.iface, one.outputs);
    record_run_outputs(outcome, run, std::move(one.outputs), r.options);
  }
  return outcome;
}

}  // namespace vyre::opencl
