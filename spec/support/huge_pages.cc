#include "spec/support/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace vyre {
namespace {

/// Below this a page fault per 4 KiB is cheap enough.
constexpr size_t kHugeBufferBytes = size_t{4} << 20;
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;

}  // namespace

void reserve_on_huge_pages(std::vector<uint8_t>& buffer, size_t bytes) {
  buffer.reserve(bytes);
  if (bytes < kHugeBufferBytes) return;
  const auto begin = reinterpret_cast<uintptr_t>(buffer.data());
  const uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace vyre
