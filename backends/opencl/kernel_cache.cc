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

KernelCache::~KernelCache() {
  if (queue_.abandoned()) return;
  for (const auto& [id, entry] : kernels_) release(entry.first);
}

void KernelCache::release(const BuiltKernel& k) const {
  if (k.kernel != nullptr) api_.clReleaseKernel(k.kernel);
  if (k.program != nullptr) api_.clReleaseProgram(k.program);
}

Result<const BuiltKernel*> KernelCache::get(uint64_t id, const LoweredKernel& lowered,
                                            const std::string& device_name, bool& built) {
  built = false;
  if (auto it = kernels_.find(id); it != kernels_.end()) {
    order_.splice(order_.begin(), order_, it->second.second);
    return &it->second.first;
  }
  BuiltKernel k;
  const char* source = lowered.source.c_str();
  const size_t length = lowered.source.size();
  cl_int error = CL_SUCCESS;
  k.program = api_.clCreateProgramWithSource(queue_.context(), 1, &source, &length, &error);
  if (k.program == nullptr) {
    return Error{"clCreateProgramWithSource failed on " + device_name + ": " +
                 cl_error_name(error)};
  }
  cl_device_id device = queue_.device();
  error = api_.clBuildProgram(k.program, 1, &device, kBuildOptions, nullptr, nullptr);
  if (error != CL_SUCCESS) {
    std::string message = "the OpenCL compiler of " + device_name + " rejected the kernel (" +
                          cl_error_name(error) + "):\n" + build_log(api_, k.program, device) +
                          "\n--- generated OpenCL C ---\n" + lowered.source;
    release(k);
    return Error{message};
  }
  k.kernel = api_.clCreateKernel(k.program, kKernelName, &error);
  if (k.kernel == nullptr) {
    release(k);
    return Error{"clCreateKernel failed on " + device_name + ": " + cl_error_name(error)};
  }
  size_t work_group_size = 0;
  api_.clGetKernelWorkGroupInfo(k.kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof work_group_size,
                                &work_group_size, nullptr);
  k.max_work_group_size = work_group_size;
  if (kernels_.size() >= capacity_ && !order_.empty()) {
    release(kernels_.at(order_.back()).first);
    kernels_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(id);
  built = true;
  return &kernels_.emplace(id, std::make_pair(k, order_.begin())).first->second.first;
}

}  // namespace vyre::opencl
