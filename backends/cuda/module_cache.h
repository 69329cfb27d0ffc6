// Kernels loaded into one context (cuModuleLoadDataEx), cached under the
// program's process-unique id, least recently used evicted: a certification
// run dispatches each program many times.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/nvrtc_compile.h"

namespace vyre::cuda {

/// One kernel loaded into a context.
struct LoadedKernel {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  /// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: may be below the device's limit.
  uint64_t max_threads_per_block = 0;
  /// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: the kernel's __shared__ arrays.
  uint64_t shared_bytes = 0;
};

/// Least recently used kernels of one context, at most `capacity`.
///
/// Thread-safe: compile workers load modules ahead (Backend::prepare) while
/// the run dispatches; the driver's load runs outside the lock. The caller
/// makes the context current first. A kernel is shared: one evicted while a
/// dispatch uses it lives until that dispatch lets it go, and every kernel
/// keeps its context alive.
class ModuleCache {
 public:
  ModuleCache(const CudaApi& api, std::shared_ptr<const CudaContext> context, size_t capacity)
      : api_(api), context_(std::move(context)), capacity_(capacity) {}
  ModuleCache(const ModuleCache&) = delete;
  ModuleCache& operator=(const ModuleCache&) = delete;

  /// The kernel of program `id`, loaded from `image` on a miss (`loaded` says
  /// which). Errors: the driver rejected the image (PTX JIT log included) or
  /// the module has no kKernelName.
  Result<std::shared_ptr<const LoadedKernel>> get(uint64_t id, const KernelImage& image,
                                                  const std::string& device_name, bool& loaded);

 private:
  Result<std::shared_ptr<const LoadedKernel>> load(const KernelImage& image,
                                                   const std::string& device_name) const;

  const CudaApi& api_;
  std::shared_ptr<const CudaContext> context_;
  size_t capacity_;
  std::mutex mutex_;           ///< Guards order_ and kernels_.
  std::list<uint64_t> order_;  // Most recently used first.
  std::unordered_map<uint64_t,
                     std::pair<std::shared_ptr<const LoadedKernel>, std::list<uint64_t>::iterator>>
      kernels_;
};

}  // namespace vyre::cuda
