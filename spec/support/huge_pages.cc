#include "spec/support/huge_pages.h"

#include <sys/mman.h>

namespace vyre {

void advise_huge_pages(void* begin, size_t bytes) {
  const auto start = reinterpret_cast<uintptr_t>(begin);
  const uintptr_t first = (start + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1};
  const uintptr_t last = (start + bytes) & ~uintptr_t{kHugePageBytes - 1};
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

void reserve_on_huge_pages(std::vector<uint8_t>& buffer, size_t bytes) {
  buffer.reserve(bytes);
  if (bytes >= kHugeBufferBytes) advise_huge_pages(buffer.data(), bytes);
}

}  // namespace vyre
