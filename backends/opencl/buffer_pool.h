// Device buffers of one dispatch lane (dispatch_lanes.h), kept for reuse
// between its dispatches: a certification run repeats every dispatch, and a
// fresh buffer costs an allocation and, on a CPU device, a page fault per
// 4 KiB on first touch (the 128 MiB saturation case spent most of its time
// there).
//
// A kept buffer may also remember its device bytes (its *content*), so that
// a later dispatch binding those very bytes binds it without an upload: a
// host-driven case (the dataflow engine) dispatches a few hundred times with
// mostly the same buffers, and each upload is a map, a copy and an unmap.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {

/// Capacity of the buffer that serves a request of `bytes`: powers of two up
/// to 1 MiB, whole MiB above (so similar sizes share buffers), never past
/// `max_alloc` unless `bytes` itself is.
uint64_t size_class(uint64_t bytes, uint64_t max_alloc);

/// Largest host buffer whose content a kept buffer remembers: a larger one
/// is uploaded each time (comparing and copying it on the host would cost
/// about as much as the upload).
inline constexpr uint64_t kMaxRememberedBytes = uint64_t{16} << 20;
/// Most host bytes of contents a pool remembers in all.
inline constexpr uint64_t kMaxRememberedTotal = uint64_t{64} << 20;

/// Free buffers of one lane's queue by capacity. Every buffer is CL_MEM_READ_WRITE,
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
  /// when the driver cannot allocate one. `capacity` gets its size. Its
  /// content is unknown (it may hold a remembered content, now forgotten).
  cl_mem take(uint64_t bytes, uint64_t& capacity, cl_int& error);
  /// A kept buffer whose device bytes are `host` then zeros up to
  /// `device_bytes`, removed from the pool with its remembered content
  /// (moved into `content`); nullptr when none holds them. `capacity` gets
  /// its size.
  cl_mem take_holding(const ByteBuffer& host, uint64_t device_bytes, uint64_t& capacity,
                      std::optional<ByteBuffer>& content);
  /// A kept buffer of the size class of `device_bytes` whose remembered
  /// content has `host`'s length and differs from it in at most
  /// `max_words` 32-bit words (`host`'s length a whole number of words),
  /// removed from the pool with that content (moved into `content`);
  /// `differing` gets the indices of the words to write. nullptr when none.
  cl_mem take_nearest(const ByteBuffer& host, uint64_t device_bytes, size_t max_words,
                      uint64_t& capacity, std::optional<ByteBuffer>& content,
                      std::vector<uint64_t>& differing);
  /// Takes a buffer of `capacity` back for reuse; `content`, when given, is
  /// what its first bytes hold, the rest up to its device bytes being zeros.
  void give(cl_mem buffer, uint64_t capacity, std::optional<ByteBuffer> content = std::nullopt);
  /// Buffers released so far (KernelArguments::within).
  uint64_t releases() const { return releases_; }
  /// Bytes of content remembered now (for tests).
  uint64_t remembered_bytes() const { return remembered_bytes_; }

 private:
  struct Kept {
    cl_mem buffer = nullptr;
    std::optional<ByteBuffer> content;
  };
  /// Releases the largest kept buffers while past the budgets.
  void trim();
  void forget(Kept& kept);

  const OpenClApi& api_;
  const ClQueue& queue_;
  uint64_t max_alloc_;
  uint64_t max_kept_bytes_;
  uint64_t kept_bytes_ = 0;
  uint64_t remembered_bytes_ = 0;
  uint64_t releases_ = 0;
  std::multimap<uint64_t, Kept> free_;
};

/// The buffers one dispatch holds, given back to the pool at its end (with
/// the contents the dispatch learnt); kept out of the pool (leaked) when the
/// queue was abandoned with a kernel that may still use them.
class DispatchBuffers {
 public:
  DispatchBuffers(BufferPool& pool, const ClQueue& queue) : pool_(pool), queue_(queue) {}
  ~DispatchBuffers();
  DispatchBuffers(const DispatchBuffers&) = delete;
  DispatchBuffers& operator=(const DispatchBuffers&) = delete;

  /// A buffer of at least `bytes` for this dispatch.
  cl_mem take(uint64_t bytes, cl_int& error);
  /// A buffer that already holds `host` then zeros up to `device_bytes`, for
  /// this dispatch; nullptr when the pool has none.
  cl_mem take_holding(const ByteBuffer& host, uint64_t device_bytes);
  /// A buffer that holds `host` but for the words listed in `differing`
  /// (at most `max_words`), for this dispatch; nullptr when the pool has none.
  cl_mem take_nearest(const ByteBuffer& host, uint64_t device_bytes, size_t max_words,
                      std::vector<uint64_t>& differing);
  /// Records that `buffer` (taken by this dispatch) holds `content` then
  /// zeros, to be remembered when it goes back to the pool.
  void remember(cl_mem buffer, ByteBuffer content);
  /// Records that `buffer`, taken by take_holding, still holds what it held.
  void still_holds(cl_mem buffer);
  /// The pool's released buffers so far (BufferPool::releases).
  uint64_t releases() const { return pool_.releases(); }

 private:
  struct Held {
    cl_mem buffer = nullptr;
    uint64_t capacity = 0;
    /// What it holds; given back with it only once confirmed (by remember or
    /// still_holds), so a failed dispatch leaves no content remembered.
    std::optional<ByteBuffer> content;
    bool confirmed = false;
  };
  BufferPool& pool_;
  const ClQueue& queue_;
  std::vector<Held> held_;
};

}  // namespace vyre::opencl
