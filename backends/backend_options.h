// Options a backend is created with (make_backend in backends/registry.h). One
// struct for every backend; each reads the fields that concern it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace vyre {

/// Per-invocation loop iterations a lowered program may run before it is
/// stopped and the dispatch reported as Status::Timeout (0 = no limit).
inline constexpr uint32_t kDefaultLoopIterationBudget = uint32_t{1} << 26;

/// How a backend is set up.
struct BackendOptions {
  /// Device to use: an index ("1") or a case-insensitive substring of the
  /// device name ("llvmpipe", "H100"); empty means the first device.
  std::string device;
  /// Longest wait for one submission to finish before it counts as hung.
  std::chrono::milliseconds fence_timeout{10'000};
  /// See kDefaultLoopIterationBudget.
  uint32_t loop_iteration_budget = kDefaultLoopIterationBudget;
  /// Stage every buffer through a host-visible copy even where device memory
  /// is host-visible (exercises the discrete-GPU path on an integrated one).
  bool force_staging = false;
  /// Folder of the on-disk cache of driver-compiled code (OpenCL program
  /// binaries, the Vulkan pipeline cache; backends/disk_cache.h); empty
  /// keeps none. The CLI sets it (--cache-dir, --no-cache); tests point it
  /// at a temporary folder.
  std::string cache_dir;
  /// Threads the reference backend's dispatch_runs spreads runs over (0: one
  /// per host core; 1: serial).
  uint32_t host_threads = 0;
  /// What the OpenCL backend's concurrent_dispatches() answers, so that
  /// tests (and backend authors measuring) can run several dispatches at
  /// once on a device where it would answer 1; 0: the backend's choice.
  uint32_t dispatch_lanes = 0;
  /// How many in-order queues the OpenCL backend spreads a batch's runs over
  /// (backends/opencl/batch_run.h), so that tests can run them side by side
  /// on a CPU device too; 0: the backend's choice (kBatchQueues on a GPU,
  /// 1 elsewhere); at most kBatchQueues.
  uint32_t batch_queues = 0;
};

}  // namespace vyre
