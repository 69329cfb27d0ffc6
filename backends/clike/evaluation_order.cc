#include "backends/clike/evaluation_order.h"

#include <algorithm>
#include <numeric>

#include "backends/mutants/mutant.h"

namespace vyre::clike {

std::vector<size_t> evaluation_order(OrderedOperands construct, size_t count) {
  std::vector<size_t> order(count);
  std::iota(order.begin(), order.end(), size_t{0});
  const auto reversed_if = [&](Mutant m) {
    if (mutant_active(m)) std::reverse(order.begin(), order.end());
  };
  switch (construct) {
    case OrderedOperands::Binary:
      reversed_if(Mutant::BinaryRightOperandFirst);
      break;
    case OrderedOperands::Store:
      reversed_if(Mutant::StoreValueBeforeIndex);
      break;
    case OrderedOperands::Loop:
      reversed_if(Mutant::LoopUpperBoundFirst);
      break;
    case OrderedOperands::Call:
      reversed_if(Mutant::CallArgumentsRightToLeft);
      break;
    case OrderedOperands::Select:
      // cond, if_true, if_false: the false arm first, or the condition last.
      if (mutant_active(Mutant::SelectArmsReversed)) order = {0, 2, 1};
      if (mutant_active(Mutant::SelectConditionLast)) order = {1, 2, 0};
      break;
  }
  return order;
}

}  // namespace vyre::clike
