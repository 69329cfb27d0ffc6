// Enumerating, choosing and probing CUDA devices.
#include "backends/cuda/cuda_device.h"

#include <algorithm>

#include "backends/device_selection.h"

namespace vyre::cuda {
namespace {

uint64_t attribute(const CudaApi& api, CUdevice device, CUdevice_attribute which) {
  int value = 0;
  if (api.cuDeviceGetAttribute(&value, which, device) != kCudaSuccess || value < 0) return 0;
  return static_cast<uint64_t>(value);
}

uint32_t clamp_u32(uint64_t v) {
  return static_cast<uint32_t>(std::min<uint64_t>(v, 0xFFFFFFFFu));
}

std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

CudaDevice probe_device(const CudaApi& api, CUdevice device, int driver_version) {
  CudaDevice out;
  out.device = device;
  char name[256] = {};
  if (api.cuDeviceGetName(name, sizeof name - 1, device) != kCudaSuccess) name[0] = '?';
  DeviceLimits& l = out.limits;
  l.device_name = name;
  l.max_threads_per_block = attribute(api, device, kAttrMaxThreadsPerBlock);
  for (int axis = 0; axis < 3; ++axis) {
    l.max_block_dim[axis] = attribute(api, device, kAttrMaxBlockDimX + axis);
    l.max_grid_dim[axis] = attribute(api, device, kAttrMaxGridDimX + axis);
  }
  l.max_shared_memory_per_block = attribute(api, device, kAttrMaxSharedMemoryPerBlock);
  size_t total = 0;
  if (api.cuDeviceTotalMem(&total, device) == kCudaSuccess) l.total_memory = total;
  out.compute_capability = {static_cast<int>(attribute(api, device, kAttrComputeCapabilityMajor)),
                            static_cast<int>(attribute(api, device, kAttrComputeCapabilityMinor))};

  Capabilities& c = out.capabilities;
  c.device_name = l.device_name;
  c.driver = "NVIDIA CUDA driver " + version_text(driver_version);
  c.api = "CUDA " + version_text(driver_version) + ", compute capability " +
          std::to_string(out.compute_capability.major) + "." +
          std::to_string(out.compute_capability.minor);
  c.max_workgroup_invocations = clamp_u32(l.max_threads_per_block);
  for (size_t axis = 0; axis < 3; ++axis) {
    c.max_workgroup_size[axis] = clamp_u32(l.max_block_dim[axis]);
    c.max_workgroup_count[axis] = clamp_u32(l.max_grid_dim[axis]);
  }
  c.max_storage_buffer_bytes = l.total_memory;
  c.max_uniform_buffer_bytes = kMaxUniformBytes;
  c.max_workgroup_memory_bytes = l.max_shared_memory_per_block;
  // Two warps: as the other backends' default, and a whole number of warps.
  c.preferred_workgroup_size = 64;
  return out;
}

/// `devices` as a selector sees them: matched by name.
std::vector<ListedDevice> listed(const std::vector<CudaDevice>& devices) {
  std::vector<ListedDevice> out;
  for (const CudaDevice& d : devices) {
    out.push_back(
        {d.capabilities.device_name, d.capabilities.device_name + " (" + d.capabilities.api + ")"});
  }
  return out;
}

}  // namespace

Result<std::vector<CudaDevice>> list_devices(const CudaApi& api) {
  int count = 0;
  const CUresult got = api.cuDeviceGetCount(&count);
  if (got != kCudaSuccess || count <= 0) {
    return Error{"no CUDA device (cuDeviceGetCount: " + cu_error_name(got, &api) + ", " +
                 std::to_string(count) + " devices)"};
  }
  int driver_version = 0;
  api.cuDriverGetVersion(&driver_version);
  std::vector<CudaDevice> devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (api.cuDeviceGet(&device, ordinal) != kCudaSuccess) continue;
    devices.push_back(probe_device(api, device, driver_version));
  }
  if (devices.empty()) {
    return Error{"the CUDA driver counts " + std::to_string(count) +
                 " devices but returns none of them (cuDeviceGet)"};
  }
  return devices;
}

Result<CudaDevice> select_device(const std::vector<CudaDevice>& devices,
                                 std::string_view selector) {
  if (devices.empty()) return Error{"no CUDA device to choose from"};
  if (selector.empty()) return devices.front();
  Result<size_t> chosen = selected_device(listed(devices), selector, "CUDA");
  if (!chosen.ok()) return chosen.error();
  return devices[*chosen];
}

Result<std::unique_ptr<CudaContext>> CudaContext::create(const CudaApi& api,
                                                         const CudaDevice& device) {
  std::unique_ptr<CudaContext> c(new CudaContext(api));
  if (const CUresult r = api.cuCtxCreate(&c->context_, 0, device.device); r != kCudaSuccess) {
    c->context_ = nullptr;
    return Error{"cannot create a CUDA context on " + device.capabilities.device_name + ": " +
                 cu_error_name(r, &api)};
  }
  if (const CUresult r = api.cuStreamCreate(&c->stream_, kStreamNonBlocking); r != kCudaSuccess) {
    c->stream_ = nullptr;
    return Error{"cannot create a CUDA stream on " + device.capabilities.device_name + ": " +
                 cu_error_name(r, &api)};
  }
  return c;
}

bool CudaContext::make_current() const {
  return api_.cuCtxSetCurrent(context_) == kCudaSuccess;
}

CudaContext::~CudaContext() {
  if (abandoned_ || context_ == nullptr) return;
  // Destroying the context frees its stream, modules and memory with it.
  api_.cuCtxDestroy(context_);
}

}  // namespace vyre::cuda
