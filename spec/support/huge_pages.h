// Large host buffers on transparent huge pages. A fresh buffer costs a page
// fault per 4 KiB on first touch, and in a virtual machine a fault is slow:
// a 128 MiB buffer took about 1 s to fill here page by page, about 55 ms on
// 2 MiB pages, which Linux gives only where asked (madvise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vyre {

/// From this size on a buffer is worth huge pages: below it a page fault per
/// 4 KiB is cheap enough.
inline constexpr size_t kHugeBufferBytes = size_t{4} << 20;
/// A transparent huge page on x86-64.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

/// Asks for huge pages over the whole huge pages inside [begin, begin +
/// bytes), before anything touches them. Advice only: where it is refused the
/// memory is the same, just slower to fill.
void advise_huge_pages(void* begin, size_t bytes);

/// Reserves `bytes` in the empty `buffer`, and from kHugeBufferBytes on asks
/// for huge pages over it. Fill it within the reserved capacity (resize,
/// assign), so that it is not reallocated.
void reserve_on_huge_pages(std::vector<uint8_t>& buffer, size_t bytes);

}  // namespace vyre
