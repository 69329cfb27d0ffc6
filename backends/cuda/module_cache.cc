// Loading and caching modules.
#include "backends/cuda/module_cache.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace vyre::cuda {
namespace {

/// Bytes of the PTX JIT's error log kept.
constexpr size_t kJitLogBytes = 8192;

/// Unloads `k`'s module, unless its context was abandoned or lost.
void unload(const CudaApi& api, const CudaContext& context, const LoadedKernel& k) {
  if (k.module == nullptr || !context.releases() || !context.make_current()) return;
  api.cuModuleUnload(k.module);
}

}  // namespace

Result<std::shared_ptr<const LoadedKernel>> ModuleCache::get(uint64_t id, const KernelImage& image,
                                                             const std::string& device_name,
                                                             bool& loaded) {
  loaded = false;
  {
    std::lock_guard lock(mutex_);
    if (auto it = kernels_.find(id); it != kernels_.end()) {
      order_.splice(order_.begin(), order_, it->second.second);
      return it->second.first;
    }
  }
  Result<std::shared_ptr<const LoadedKernel>> kernel = load(image, device_name);
  if (!kernel.ok()) return kernel.error();
  std::lock_guard lock(mutex_);
  if (auto it = kernels_.find(id); it != kernels_.end()) {
    order_.splice(order_.begin(), order_, it->second.second);
    return it->second.first;  // Another thread's load won; ours is dropped.
  }
  if (kernels_.size() >= capacity_ && !order_.empty()) {
    kernels_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(id);
  loaded = true;
  kernels_.emplace(id, std::make_pair(*kernel, order_.begin()));
  return *kernel;
}

Result<std::shared_ptr<const LoadedKernel>> ModuleCache::load(
    const KernelImage& image, const std::string& device_name) const {
  LoadedKernel k;
  // Unknown until the driver says; an unanswered query refuses nothing.
  k.max_threads_per_block = UINT64_MAX;
  std::array<char, kJitLogBytes> log{};
  std::array<CUjit_option, 2> options = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  std::array<void*, 2> values = {log.data(),
                                 reinterpret_cast<void*>(static_cast<uintptr_t>(log.size() - 1))};
  CUresult r =
      api_.cuModuleLoadDataEx(&k.module, image.bytes.data(), 2, options.data(), values.data());
  if (r != kCudaSuccess) {
    return Error{"the CUDA driver rejected the " + std::string(image.cubin ? "CUBIN" : "PTX") +
                 " NVRTC made (cuModuleLoadDataEx: " + cu_error_name(r, &api_) + ") on " +
                 device_name + (log[0] != '\0' ? ":\n" + std::string(log.data()) : "")};
  }
  const std::shared_ptr<const CudaContext> context = context_;
  const CudaApi& api = api_;
  const auto release = [&api, context](const LoadedKernel* held) {
    unload(api, *context, *held);
    delete held;
  };
  r = api_.cuModuleGetFunction(&k.function, k.module, kKernelName);
  if (r != kCudaSuccess) {
    unload(api_, *context_, k);
    return Error{std::string("the module has no kernel `") + kKernelName +
                 "` (cuModuleGetFunction: " + cu_error_name(r, &api_) + ")"};
  }
  int value = 0;
  if (api_.cuFuncGetAttribute(&value, kFuncMaxThreadsPerBlock, k.function) == kCudaSuccess) {
    k.max_threads_per_block = static_cast<uint64_t>(std::max(value, 0));
  }
  if (api_.cuFuncGetAttribute(&value, kFuncSharedSizeBytes, k.function) == kCudaSuccess) {
    k.shared_bytes = static_cast<uint64_t>(std::max(value, 0));
  }
  return std::shared_ptr<const LoadedKernel>(new LoadedKernel(k), release);
}

}  // namespace vyre::cuda
