// Large host buffers on transparent huge pages. A fresh buffer costs a page
// fault per 4 KiB on first touch, and in a virtual machine a fault is slow:
// a 128 MiB buffer took about 1 s to fill here page by page, about 55 ms on
// 2 MiB pages, which Linux gives only where asked (madvise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vyre {

/// Reserves `bytes` in the empty `buffer`, and from 4 MiB on asks for huge
/// pages over it before anything touches it. Advice only: where it is
/// refused the buffer is the same, just slower to fill. Fill it within the
/// reserved capacity (resize, assign), so that it is not reallocated.
void reserve_on_huge_pages(std::vector<uint8_t>& buffer, size_t bytes);

}  // namespace vyre
