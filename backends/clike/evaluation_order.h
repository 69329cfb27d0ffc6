// The order in which a construct's operands are evaluated: left to right, as
// SEMANTICS S4 pins, in one place, so that the seeded bugs of family `order`
// (backends/mutants/mutants.def) that reorder them are picked in one place too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vyre::clike {

/// A construct whose operands have a pinned evaluation order.
enum class OrderedOperands : uint8_t {
  Binary,  ///< left, right
  Store,   ///< index, value
  Loop,    ///< from, to
  Call,    ///< the arguments
  Select,  ///< cond, if_true, if_false
};

/// Indexes of the `count` operands of `construct` in the order they are
/// evaluated: 0, 1, ..., count - 1, unless a seeded bug reorders them.
std::vector<size_t> evaluation_order(OrderedOperands construct, size_t count);

}  // namespace vyre::clike
