// Kernels of one context, cached under their OpenCL C source (two
// compiled programs with the same source share one kernel: a fuzz hunt
// compiles its block of programs ahead, then the run compiles them again)
// and built ahead by builder threads: prepare() queues a kernel, a builder
// takes its share of what is queued (up to kMaxKernelsPerProgram) and
// builds it as one program (program_builder.h), so the driver's per-build
// cost is paid once per group, on every host core, off the dispatching
// thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/opencl/program_builder.h"

namespace vyre::opencl {

/// The fewest kernels a builder takes at a time on a GPU, while as many are
/// queued: NVIDIA's clBuildProgram costs mostly per call (77-169 ms for one
/// small kernel), so fewer, larger builds pay it less often. A CPU device
/// (PoCL) keeps even shares: its joined builds cost more per kernel (a
/// fuzz hunt took 51 s of CPU in builds of 16, 35 s in even shares).
inline constexpr size_t kFewestKernelsPerGpuBuild = 16;

/// Least recently used kernels of one context, at most `capacity`.
///
/// Thread-safe: the certifier's compile workers queue kernels
/// (Backend::prepare) while the run dispatches. A kernel is shared: one
/// evicted while a dispatch uses it lives until that dispatch lets it go, and
/// every kernel keeps its program and context alive.
class KernelCache {
 public:
  /// `builder_threads` build queued kernels (started on the first prepare),
  /// each at least `fewest_per_build` of them at a time while as many are
  /// queued (kFewestKernelsPerGpuBuild on a GPU, 1 on a CPU device).
  KernelCache(std::unique_ptr<ProgramBuilder> builder, size_t capacity, unsigned builder_threads,
              size_t fewest_per_build)
      : builder_(std::move(builder)),
        capacity_(capacity),
        threads_wanted_(builder_threads),
        fewest_per_build_(fewest_per_build) {}
  /// Stops the builders (a build in progress finishes first).
  ~KernelCache();
  KernelCache(const KernelCache&) = delete;
  KernelCache& operator=(const KernelCache&) = delete;

  /// Queues the kernel of OpenCL C `source` for a builder, unless it is
  /// built, being built or queued already.
  void prepare(const std::string& source);
  /// The kernel of `source`: cached, or waited for while a builder builds
  /// it, or built here (with whatever else is queued) — `built` says whether
  /// this call built it. Errors: the driver rejected the source (its build
  /// log and the source), or kernel creation failed; a failed kernel is not
  /// kept, so the next call builds it again.
  Result<std::shared_ptr<const BuiltKernel>> get(const std::string& source, bool& built);

 private:
  /// Builds `group` (sources taken from pending_) and publishes the
  /// kernels; returns the result of `wanted` (null: none is wanted).
  Result<std::shared_ptr<const BuiltKernel>> build_group(const std::vector<std::string>& group,
                                                         const std::string* wanted);
  /// Moves up to `most` queued sources into `group`, marking them in flight.
  void take_pending(std::vector<std::string>& group, size_t most);
  /// Waits while kernels keep arriving (a burst of prepares), up to a bound,
  /// so that a burst is built in groups rather than a kernel per builder.
  void gather_burst(std::unique_lock<std::mutex>& lock);
  void insert_locked(const std::string& source, std::shared_ptr<const BuiltKernel> kernel);
  void builder_loop();

  std::unique_ptr<ProgramBuilder> builder_;
  size_t capacity_;
  unsigned threads_wanted_;
  size_t fewest_per_build_;
  std::mutex mutex_;  ///< Guards everything below.
  std::condition_variable changed_;
  bool stopping_ = false;
  /// Builders free to take queued kernels: waiting, or gathering a burst.
  unsigned free_builders_ = 0;
  uint64_t next_queued_ = 0;
  std::map<uint64_t, std::string> pending_;           ///< Queued, in compile order.
  std::unordered_map<std::string, uint64_t> queued_;  ///< pending_'s keys by source.
  std::unordered_set<std::string> in_flight_;         ///< Taken by a build not yet published.
  std::list<std::string> order_;                      ///< Most recently used first.
  std::unordered_map<
      std::string, std::pair<std::shared_ptr<const BuiltKernel>, std::list<std::string>::iterator>>
      kernels_;
  std::vector<std::thread> threads_;
};

}  // namespace vyre::opencl
