// Kernels of one queue (context), cached under the compiled program's
// process-unique id and built ahead by builder threads: prepare() queues a
// kernel, a builder takes every kernel queued so far (up to
// kMaxKernelsPerProgram) and builds them as one program
// (program_builder.h), so the driver's per-build cost is paid once per
// group, on every host core, off the dispatching thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "backends/opencl/program_builder.h"

namespace vyre::opencl {

/// Least recently used kernels of one queue, at most `capacity`.
///
/// Thread-safe: the certifier's compile workers queue kernels
/// (Backend::prepare) while the run dispatches. A kernel is shared: one
/// evicted while a dispatch uses it lives until that dispatch lets it go, and
/// every kernel keeps its program and queue (and context) alive.
class KernelCache {
 public:
  /// `builder_threads` build queued kernels (started on the first prepare).
  KernelCache(std::unique_ptr<ProgramBuilder> builder, size_t capacity, unsigned builder_threads)
      : builder_(std::move(builder)), capacity_(capacity), threads_wanted_(builder_threads) {}
  /// Stops the builders (a build in progress finishes first).
  ~KernelCache();
  KernelCache(const KernelCache&) = delete;
  KernelCache& operator=(const KernelCache&) = delete;

  /// Queues the kernel of program `id` (OpenCL C `source`) for a builder,
  /// unless it is built, being built or queued already.
  void prepare(uint64_t id, const std::string& source);
  /// The kernel of program `id`: cached, or waited for while a builder
  /// builds it, or built here (with whatever else is queued) — `built` says
  /// whether this call built it. Errors: the driver rejected the source
  /// (its build log and the source), or kernel creation failed; a failed
  /// kernel is not kept, so the next call builds it again.
  Result<std::shared_ptr<const BuiltKernel>> get(uint64_t id, const std::string& source,
                                                 bool& built);

 private:
  /// Builds `group` (the ids taken from pending_, with their sources) and
  /// publishes the kernels; returns the result of `group`'s id `wanted`.
  Result<std::shared_ptr<const BuiltKernel>> build_group(
      const std::vector<std::pair<uint64_t, std::string>>& group, uint64_t wanted);
  /// Moves up to `most` queued kernels into `group`, marking them in flight.
  void take_pending(std::vector<std::pair<uint64_t, std::string>>& group, size_t most);
  void insert_locked(uint64_t id, std::shared_ptr<const BuiltKernel> kernel);
  void builder_loop();

  std::unique_ptr<ProgramBuilder> builder_;
  size_t capacity_;
  unsigned threads_wanted_;
  std::mutex mutex_;  ///< Guards everything below.
  std::condition_variable changed_;
  bool stopping_ = false;
  unsigned idle_builders_ = 0;
  std::map<uint64_t, std::string> pending_;  ///< Queued, in compile order.
  std::set<uint64_t> in_flight_;             ///< Taken by a build not yet published.
  std::list<uint64_t> order_;                ///< Most recently used first.
  std::unordered_map<uint64_t,
                     std::pair<std::shared_ptr<const BuiltKernel>, std::list<uint64_t>::iterator>>
      kernels_;
  std::vector<std::thread> threads_;
};

}  // namespace vyre::opencl
