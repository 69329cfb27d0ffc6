// The executables' global operator new, putting large allocations on
// transparent huge pages (spec/support/huge_pages.h says why: in a virtual
// machine a 4 KiB page fault is slow, and a run copies large buffers often:
// a case's inputs into its variants, a child's reply off the pipe). On
// lavapipe every page of a 128 MiB buffer copied that way was a fault.
// Linked into the vyre-certify executables only, and not into sanitized
// builds, whose runtime replaces operator new to check new/delete pairs.
#include <cstdint>
#include <cstdlib>
#include <new>

#include "spec/support/huge_pages.h"

namespace {

using vyre::kHugeBufferBytes;
using vyre::kHugePageBytes;

void* allocate(std::size_t bytes) {
  if (bytes < kHugeBufferBytes) return std::malloc(bytes == 0 ? 1 : bytes);
  if (bytes > SIZE_MAX - kHugePageBytes) return nullptr;  // Rounding up would wrap.
  // Aligned to (and a multiple of) a huge page, so that all of it can be
  // one; glibc gives memory this large fresh from mmap, untouched.
  const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
  if (p != nullptr) vyre::advise_huge_pages(p, rounded);
  return p;
}

void* allocate_or_throw(std::size_t bytes) {
  for (;;) {
    if (void* p = allocate(bytes)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace

void* operator new(std::size_t bytes) {
  return allocate_or_throw(bytes);
}
void* operator new[](std::size_t bytes) {
  return allocate_or_throw(bytes);
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return allocate_or_throw(bytes);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return ::operator new(bytes, std::nothrow);
}
// Everything above came from malloc or aligned_alloc, which free releases.
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
