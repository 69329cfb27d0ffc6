// The slowest cases of a run, which the report lists with their device/host
// split so that a reader sees where the run's floor is.
#include <algorithm>

#include "certify/report/report.h"

namespace vyre::certify {

std::vector<const CaseResult*> slowest_cases(const Report& report) {
  std::vector<const CaseResult*> order;
  order.reserve(report.cases.size());
  for (const CaseResult& c : report.cases) order.push_back(&c);
  const size_t listed = std::min(order.size(), kSlowestCasesListed);
  // Stable, so that equal times keep case order and the list is reproducible.
  std::stable_sort(order.begin(), order.end(), [](const CaseResult* a, const CaseResult* b) {
    return a->backend_us > b->backend_us;
  });
  order.resize(listed);
  return order;
}

}  // namespace vyre::certify
