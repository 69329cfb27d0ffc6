// Building and caching kernels.
#include "backends/opencl/kernel_cache.h"

#include "backends/opencl/opencl_c_emitter.h"

namespace vyre::opencl {
namespace {

std::string build_log(const OpenClApi& api, cl_program program, cl_device_id device) {
  size_t size = 0;
  if (api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
      CL_SUCCESS) {
    return "(no build log)";
  }
  std::string log(size, '\0');
  api.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

namespace {

/// Releases what `k` holds, unless its queue was abandoned with work that
/// may still use it.
void release_kernel(const OpenClApi& api, const ClQueue& queue, const BuiltKernel& k) {
  if (queue.abandoned()) return;
  if (k.kernel != nullptr) api.clReleaseKernel(k.kernel);
  if (k.program != nullptr) api.clReleaseProgram(k.program);
}

}  // namespace

Result<std::shared_ptr<const BuiltKernel>> KernelCache::get(uint64_t id,
                                                            const LoweredKernel& lowered,
                                                            const std::string& device_name,
                                                            bool& built) {
  built = false;
  {
    std::lock_guard lock(mutex_);
    if (auto it = kernels_.find(id); it != kernels_.end()) {
      order_.splice(order_.begin(), order_, it->second.second);
      return it->second.first;
    }
  }
  Result<std::shared_ptr<const BuiltKernel>> kernel = build(lowered, device_name);
  if (!kernel.ok()) return kernel.error();
  std::lock_guard lock(mutex_);
  if (auto it = kernels_.find(id); it != kernels_.end()) {
    order_.splice(order_.begin(), order_, it->second.second);
    return it->second.first;  // Another thread's build won; ours is dropped.
  }
  if (kernels_.size() >= capacity_ && !order_.empty()) {
    kernels_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(id);
  built = true;
  kernels_.emplace(id, std::make_pair(*kernel, order_.begin()));
  return *kernel;
}

Result<std::shared_ptr<const BuiltKernel>> KernelCache::build(
    const LoweredKernel& lowered, const std::string& device_name) const {
  BuiltKernel k;
  const auto failed = [&](std::string message) {
    release_kernel(api_, *queue_, k);
    return Error{std::move(message)};
  };
  const char* source = lowered.source.c_str();
  const size_t length = lowered.source.size();
  cl_int error = CL_SUCCESS;
  k.program = api_.clCreateProgramWithSource(queue_->context(), 1, &source, &length, &error);
  if (k.program == nullptr) {
    return failed("clCreateProgramWithSource failed on " + device_name + ": " +
                  cl_error_name(error));
  }
  cl_device_id device = queue_->device();
  error = api_.clBuildProgram(k.program, 1, &device, kBuildOptions, nullptr, nullptr);
  if (error != CL_SUCCESS) {
    return failed("the OpenCL compiler of " + device_name + " rejected the kernel (" +
                  cl_error_name(error) + "):\n" + build_log(api_, k.program, device) +
                  "\n--- generated OpenCL C ---\n" + lowered.source);
  }
  k.kernel = api_.clCreateKernel(k.program, kKernelName, &error);
  if (k.kernel == nullptr) {
    return failed("clCreateKernel failed on " + device_name + ": " + cl_error_name(error));
  }
  size_t work_group_size = 0;
  api_.clGetKernelWorkGroupInfo(k.kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof work_group_size,
                                &work_group_size, nullptr);
  k.max_work_group_size = work_group_size;
  // The deleter holds the queue: its context outlives every kernel built in it.
  const OpenClApi& api = api_;
  std::shared_ptr<const ClQueue> queue = queue_;
  return std::shared_ptr<const BuiltKernel>(new BuiltKernel(k),
                                            [&api, queue](const BuiltKernel* held) {
                                              release_kernel(api, *queue, *held);
                                              delete held;
                                            });
}

}  // namespace vyre::opencl
