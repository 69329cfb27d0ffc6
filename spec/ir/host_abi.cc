#include "spec/ir/host_abi.h"

namespace vyre {

std::optional<uint64_t> axis_product(const std::array<uint32_t, 3>& axes) {
  uint64_t total = 1;
  for (uint32_t n : axes) {
    if (__builtin_mul_overflow(total, uint64_t{n}, &total)) return std::nullopt;
  }
  return total;
}

std::optional<uint64_t> dispatch_invocations(const std::array<uint32_t, 3>& size,
                                             const Grid& grid) {
  std::optional<uint64_t> total = axis_product(size);
  for (uint32_t n : grid.workgroups) {
    if (!total || __builtin_mul_overflow(*total, uint64_t{n}, &*total)) return std::nullopt;
  }
  return total;
}

}  // namespace vyre
