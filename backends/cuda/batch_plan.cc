// Laying out a batch.
#include "backends/cuda/batch_plan.h"

#include <algorithm>

namespace vyre::cuda {

BatchPlan plan_batch(const BatchOptions& options, uint64_t per_run_bytes, uint64_t budget_bytes) {
  BatchPlan plan;
  plan.runs = std::max<uint32_t>(options.runs, 1);
  plan.pristine = plan.runs > 1;
  const uint32_t submissions = std::clamp<uint32_t>(options.submissions, 1, plan.runs);
  const uint32_t by_submissions = (plan.runs + submissions - 1) / submissions;
  const uint64_t by_memory = per_run_bytes == 0 ? plan.runs : budget_bytes / per_run_bytes;
  plan.chunk =
      static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(by_submissions, by_memory)));
  return plan;
}

uint64_t slot_stride(uint64_t bytes) {
  return (bytes + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment;
}

}  // namespace vyre::cuda
