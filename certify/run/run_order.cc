#include "certify/run/run_order.h"

#include <algorithm>
#include <numeric>

#include "certify/suite/found_bug_cases.h"

namespace vyre::certify {

std::vector<size_t> run_order(const std::vector<const SuiteCase*>& cases) {
  std::vector<size_t> order(cases.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_partition(order.begin(), order.end(),
                        [&](size_t i) { return cases[i]->id.starts_with(kFoundBugIdPrefix); });
  return order;
}

}  // namespace vyre::certify
