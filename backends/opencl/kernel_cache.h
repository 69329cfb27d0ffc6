// Kernels built from lowered programs, cached per queue (context) under the
// program's process-unique id: the driver's build (clBuildProgram, LLVM on
// PoCL, ~100 ms) happens once per compiled program and device.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "backends/opencl/lowering.h"
#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {

/// Options of every clBuildProgram: OpenCL C 1.2, no relaxed-math flags (the
/// IR has no floats, and none would be allowed to lose exactness).
inline constexpr const char* kBuildOptions = "-cl-std=CL1.2";

/// One built kernel.
struct BuiltKernel {
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  /// CL_KERNEL_WORK_GROUP_SIZE: the most invocations per workgroup this
  /// kernel can run with on the device (may be below the device's limit).
  uint64_t max_work_group_size = 0;
};

/// Least recently used kernels of one queue, at most `capacity`.
///
/// Thread-safe: the certifier's compile workers build kernels ahead
/// (Backend::prepare) while the run dispatches; the driver's build runs
/// outside the lock. A kernel is shared: one evicted while a dispatch uses it
/// lives until that dispatch lets it go, and every kernel keeps its queue
/// (and context) alive.
class KernelCache {
 public:
  KernelCache(const OpenClApi& api, std::shared_ptr<const ClQueue> queue, size_t capacity)
      : api_(api), queue_(std::move(queue)), capacity_(capacity) {}
  KernelCache(const KernelCache&) = delete;
  KernelCache& operator=(const KernelCache&) = delete;

  /// The kernel of program `id`, built from `lowered` on a miss (`built` says
  /// which). Errors: the driver rejected the source (its build log and the
  /// source), or kernel creation failed. Two threads asking for a new id at
  /// once may both build it; one build is kept.
  Result<std::shared_ptr<const BuiltKernel>> get(uint64_t id, const LoweredKernel& lowered,
                                                 const std::string& device_name, bool& built);

 private:
  Result<std::shared_ptr<const BuiltKernel>> build(const LoweredKernel& lowered,
                                                   const std::string& device_name) const;

  const OpenClApi& api_;
  std::shared_ptr<const ClQueue> queue_;
  size_t capacity_;
  std::mutex mutex_;           ///< Guards order_ and kernels_.
  std::list<uint64_t> order_;  // Most recently used first.
  std::unordered_map<uint64_t,
                     std::pair<std::shared_ptr<const BuiltKernel>, std::list<uint64_t>::iterator>>
      kernels_;
};

}  // namespace vyre::opencl
