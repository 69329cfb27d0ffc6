// Enumerating, choosing and probing OpenCL devices.
#include "backends/opencl/opencl_device.h"

#include <algorithm>

#include "backends/device_selection.h"
#include "backends/opencl/program_builder.h"
#include "spec/ir/uniform_limit.h"

namespace vyre::opencl {
namespace {

/// Platform ids asked for; more than any machine has.
constexpr cl_uint kMaxPlatforms = 16;
constexpr cl_uint kMaxDevices = 64;
/// ClQueue::spin_wait on a GPU: past it, a wait sleeps on a callback.
constexpr std::chrono::microseconds kGpuSpinWait{200};

std::string platform_string(const OpenClApi& api, cl_platform_id p, cl_platform_info what) {
  char text[1024] = {};
  if (api.clGetPlatformInfo(p, what, sizeof text - 1, text, nullptr) != CL_SUCCESS) return "?";
  return text;
}

std::string device_string(const OpenClApi& api, cl_device_id d, cl_device_info what) {
  char text[1024] = {};
  if (api.clGetDeviceInfo(d, what, sizeof text - 1, text, nullptr) != CL_SUCCESS) return "?";
  return text;
}

template <typename T>
T device_value(const OpenClApi& api, cl_device_id d, cl_device_info what) {
  T value{};
  if (api.clGetDeviceInfo(d, what, sizeof value, &value, nullptr) != CL_SUCCESS) return T{};
  return value;
}

uint32_t clamp_u32(uint64_t v) {
  return static_cast<uint32_t>(std::min<uint64_t>(v, 0xFFFFFFFFu));
}

ClDevice probe_device(const OpenClApi& api, cl_platform_id platform, cl_device_id device) {
  ClDevice out{platform, device, {}, {}, device_value<cl_device_type>(api, device, CL_DEVICE_TYPE)};
  DeviceLimits& l = out.limits;
  l.device_name = device_string(api, device, CL_DEVICE_NAME);
  size_t sizes[3] = {0, 0, 0};
  api.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, nullptr);
  for (size_t axis = 0; axis < 3; ++axis) l.max_work_item_sizes[axis] = sizes[axis];
  l.max_work_group_size = device_value<size_t>(api, device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  l.local_mem_size = device_value<cl_ulong>(api, device, CL_DEVICE_LOCAL_MEM_SIZE);
  l.max_mem_alloc_size = device_value<cl_ulong>(api, device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  l.max_constant_buffer_size =
      device_value<cl_ulong>(api, device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
  l.max_constant_args = device_value<cl_uint>(api, device, CL_DEVICE_MAX_CONSTANT_ARGS);
  l.max_parameter_size = device_value<size_t>(api, device, CL_DEVICE_MAX_PARAMETER_SIZE);
  l.address_bits = device_value<cl_uint>(api, device, CL_DEVICE_ADDRESS_BITS);

  Capabilities& c = out.capabilities;
  c.device_name = l.device_name;
  c.driver = platform_string(api, platform, CL_PLATFORM_NAME) + " " +
             device_string(api, device, CL_DRIVER_VERSION);
  c.api = device_string(api, device, CL_DEVICE_VERSION);
  c.max_workgroup_invocations = clamp_u32(l.max_work_group_size);
  for (size_t axis = 0; axis < 3; ++axis) {
    c.max_workgroup_size[axis] = clamp_u32(l.max_work_item_sizes[axis]);
    // OpenCL limits no workgroup count; u32 invocation ids do (dispatch_checks).
    c.max_workgroup_count[axis] = 0xFFFFFFFFu;
  }
  c.max_storage_buffer_bytes = l.max_mem_alloc_size;
  c.max_uniform_buffer_bytes = std::min<uint64_t>(l.max_constant_buffer_size, kMaxUniformBytes);
  c.max_workgroup_memory_bytes = l.local_mem_size;
  // The work-group size multiple is a kernel property; 64 unless the device
  // is known to prefer another (NVIDIA warps are 32 wide, 64 suits them too).
  c.preferred_workgroup_size = 64;
  const bool usable = device_value<cl_bool>(api, device, CL_DEVICE_AVAILABLE) &&
                      device_value<cl_bool>(api, device, CL_DEVICE_COMPILER_AVAILABLE);
  if (!usable) {
    c.unavailable = "OpenCL device `" + l.device_name +
                    "` is not available or has no OpenCL C compiler (CL_DEVICE_AVAILABLE, "
                    "CL_DEVICE_COMPILER_AVAILABLE)";
  }
  return out;
}

/// `devices` as a selector sees them: matched by "driver: name".
std::vector<ListedDevice> listed(const std::vector<ClDevice>& devices) {
  std::vector<ListedDevice> out;
  for (const ClDevice& d : devices) {
    out.push_back({d.capabilities.driver + ": " + d.capabilities.device_name,
                   d.capabilities.device_name + " (" + d.capabilities.driver + ")"});
  }
  return out;
}

}  // namespace

Result<std::vector<ClDevice>> list_devices(const OpenClApi& api) {
  cl_platform_id platforms[kMaxPlatforms] = {};
  cl_uint platform_count = 0;
  const cl_int got = api.clGetPlatformIDs(kMaxPlatforms, platforms, &platform_count);
  if (got != CL_SUCCESS || platform_count == 0) {
    return Error{"no OpenCL platform (clGetPlatformIDs: " + cl_error_name(got) +
                 "): the ICD loader found no driver in /etc/OpenCL/vendors. Install one "
                 "(PoCL: pocl-opencl-icd; NVIDIA: its driver's OpenCL ICD)."};
  }
  std::vector<ClDevice> devices;
  for (cl_uint p = 0; p < std::min(platform_count, kMaxPlatforms); ++p) {
    cl_device_id ids[kMaxDevices] = {};
    cl_uint count = 0;
    if (api.clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, kMaxDevices, ids, &count) !=
        CL_SUCCESS) {
      continue;
    }
    for (cl_uint d = 0; d < std::min(count, kMaxDevices); ++d) {
      devices.push_back(probe_device(api, platforms[p], ids[d]));
    }
  }
  if (devices.empty()) {
    return Error{"the OpenCL platforms found (" + std::to_string(platform_count) +
                 ") offer no device"};
  }
  return devices;
}

Result<ClDevice> select_device(const std::vector<ClDevice>& devices, std::string_view selector) {
  if (selector.empty()) {
    // As the Vulkan backend prefers a discrete GPU: a host with NVIDIA's
    // driver and PoCL lists whichever platform the loader finds first, and
    // a user who names no device means the GPU.
    const auto gpu = std::find_if(devices.begin(), devices.end(), [](const ClDevice& d) {
      return (d.type & CL_DEVICE_TYPE_GPU) != 0 && d.capabilities.unavailable.empty();
    });
    return gpu != devices.end() ? *gpu : devices.front();
  }
  Result<size_t> chosen = selected_device(listed(devices), selector, "OpenCL");
  if (!chosen.ok()) return chosen.error();
  return devices[*chosen];
}

Result<std::shared_ptr<ClContext>> ClContext::create(const OpenClApi& api, const ClDevice& device) {
  std::shared_ptr<ClContext> c(new ClContext(api, device.device));
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device.platform), 0};
  cl_int error = CL_SUCCESS;
  c->context_ = api.clCreateContext(properties, 1, &device.device, nullptr, nullptr, &error);
  if (c->context_ == nullptr) {
    return Error{"cannot create an OpenCL context on " + device.capabilities.device_name + ": " +
                 cl_error_name(error)};
  }
  return c;
}

std::chrono::milliseconds ClQueue::first_run_allowance(const BuiltKernel& kernel,
                                                       std::chrono::milliseconds fence) const {
  // One more fence timeout: L5/random/000018's first enqueue took PoCL 3.9 s
  // of CPU, and a 354-line fuzz program's passed the 10 s deadline twice on
  // two loaded cores, where it takes 8 s cold and 0.17 s cached alone. A
  // kernel that hangs on its first run is found one fence timeout later.
  return compiles_at_first_enqueue_ && !kernel.ran.load() ? fence : std::chrono::milliseconds{0};
}

ClContext::~ClContext() {
  if (!abandoned_ && context_ != nullptr) api_.clReleaseContext(context_);
}

Result<std::unique_ptr<ClQueue>> ClQueue::create(const OpenClApi& api,
                                                 std::shared_ptr<ClContext> context,
                                                 const ClDevice& device) {
  std::unique_ptr<ClQueue> q(new ClQueue(api, std::move(context)));
  if ((device.type & CL_DEVICE_TYPE_GPU) != 0) q->spin_wait_ = kGpuSpinWait;
  q->compiles_at_first_enqueue_ = (device.type & CL_DEVICE_TYPE_CPU) != 0;
  // Profiled where the device can, so that kernels report the device's own
  // time; a device that cannot profile still runs everything, unmeasured.
  cl_int error = CL_SUCCESS;
  q->queue_ =
      api.clCreateCommandQueue(q->context(), device.device, CL_QUEUE_PROFILING_ENABLE, &error);
  if (q->queue_ == nullptr && error == CL_INVALID_QUEUE_PROPERTIES) {
    q->queue_ = api.clCreateCommandQueue(q->context(), device.device, 0, &error);
  }
  if (q->queue_ == nullptr) {
    return Error{"cannot create an OpenCL command queue on " + device.capabilities.device_name +
                 ": " + cl_error_name(error)};
  }
  return q;
}

Result<std::unique_ptr<ClQueue>> ClQueue::create(const OpenClApi& api, const ClDevice& device) {
  Result<std::shared_ptr<ClContext>> context = ClContext::create(api, device);
  if (!context.ok()) return context.error();
  return create(api, std::move(*context), device);
}

ClQueue::~ClQueue() {
  if (!abandoned_ && queue_ != nullptr) api_.clReleaseCommandQueue(queue_);
}

}  // namespace vyre::opencl
