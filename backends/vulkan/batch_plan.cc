// Runs per submission and slots of a batch.
#include "backends/vulkan/batch_plan.h"

#include <algorithm>

namespace vyre::vulkan {

BatchPlan plan_batch(const BatchOptions& options, uint64_t bytes_per_run,
                     uint64_t slot_budget_bytes) {
  BatchPlan plan;
  plan.runs = std::max<uint32_t>(options.runs, 1);
  const uint32_t submissions = std::clamp<uint32_t>(options.submissions, 1, plan.runs);
  const uint64_t by_memory =
      std::max<uint64_t>(1, slot_budget_bytes / std::max<uint64_t>(bytes_per_run, 1));
  const uint64_t asked = (uint64_t{plan.runs} + submissions - 1) / submissions;
  plan.chunk = static_cast<uint32_t>(
      std::min<uint64_t>({asked, by_memory, uint64_t{kMaxRunsPerSubmission}}));
  plan.slots = plan.runs == 1 ? 1 : plan.chunk + 1;
  return plan;
}

}  // namespace vyre::vulkan
