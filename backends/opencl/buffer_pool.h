// Device buffers of one context, kept for reuse between dispatches: a
// certification run repeats every dispatch, and a fresh buffer costs an
// allocation and, on a CPU device, a page fault per 4 KiB on first touch
// (the 128 MiB saturation case spent most of its time there).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {

/// Capacity of the buffer that serves a request of `bytes`: powers of two up
/// to 1 MiB, whole MiB above (so similar sizes share buffers), never past
/// `max_alloc` unless `bytes` itself is.
uint64_t size_class(uint64_t bytes, uint64_t max_alloc);

/// Free buffers of one context by capacity. Every buffer is CL_MEM_READ_WRITE,
/// so it can serve any access; the kernel's pointer types enforce the rest.
class BufferPool {
 public:
  /// Keeps at most `max_kept_bytes` of free buffers; more are released.
  BufferPool(const OpenClApi& api, const ClQueue& queue, uint64_t max_alloc,
             uint64_t max_kept_bytes)
      : api_(api), queue_(queue), max_alloc_(max_alloc), max_kept_bytes_(max_kept_bytes) {}
  /// Releases every kept buffer, unless the queue was abandoned.
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  /// A buffer of at least `bytes`, reused or new; nullptr with `error` set
  /// when the driver cannot allocate one. `capacity` gets its size.
  cl_mem take(uint64_t bytes, uint64_t& capacity, cl_int& error);
  /// Takes a buffer of `capacity` back for reuse.
  void give(cl_mem buffer, uint64_t capacity);

 private:
  const OpenClApi& api_;
  const ClQueue& queue_;
  uint64_t max_alloc_;
  uint64_t max_kept_bytes_;
  uint64_t kept_bytes_ = 0;
  std::multimap<uint64_t, cl_mem> free_;
};

/// The buffers one dispatch holds, given back to the pool at its end; kept
/// out of the pool (leaked) when the queue was abandoned with a kernel that
/// may still use them.
class DispatchBuffers {
 public:
  DispatchBuffers(BufferPool& pool, const ClQueue& queue) : pool_(pool), queue_(queue) {}
  ~DispatchBuffers();
  DispatchBuffers(const DispatchBuffers&) = delete;
  DispatchBuffers& operator=(const DispatchBuffers&) = delete;

  /// A buffer of at least `bytes` for this dispatch.
  cl_mem take(uint64_t bytes, cl_int& error);

 private:
  BufferPool& pool_;
  const ClQueue& queue_;
  std::vector<std::pair<cl_mem, uint64_t>> held_;
};

}  // namespace vyre::opencl
