// OpenCL platforms and devices: enumeration, selection by BackendOptions::device,
// probing, and the context and queue a backend runs on.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/opencl_api.h"

namespace vyre::opencl {

/// One device of one platform, as probed.
struct ClDevice {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  Capabilities capabilities;
  DeviceLimits limits;
  /// CL_DEVICE_TYPE_GPU, _CPU, ...: the default choice prefers a GPU.
  cl_device_type type = 0;
};

/// Every device of every platform, in platform then device order. Errors: no
/// platform, or no device on any platform.
Result<std::vector<ClDevice>> list_devices(const OpenClApi& api);

/// The device `selector` picks among `devices`: empty means the first usable
/// GPU, else the first device; an
/// index ("1"); else the first whose "platform: device" name contains it,
/// case-insensitively. Errors: nothing matches (the message lists the devices).
Result<ClDevice> select_device(const std::vector<ClDevice>& devices, std::string_view selector);

/// A context and in-order queue on one device. Released on destruction unless
/// abandoned: a queue with hung work is never released, since releasing it
/// would wait for that work (or is undefined while it runs).
class ClQueue {
 public:
  /// Errors: context or queue creation failed (the OpenCL error's name).
  static Result<std::unique_ptr<ClQueue>> create(const OpenClApi& api, const ClDevice& device);
  ~ClQueue();
  ClQueue(const ClQueue&) = delete;
  ClQueue& operator=(const ClQueue&) = delete;

  /// The context, its in-order queue and the device they are on.
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  cl_device_id device() const { return device_; }
  /// How long a wait on this queue asks an event's status before it sleeps
  /// (wait_for): a while on a GPU, whose small commands end within tens of
  /// microseconds; none on a CPU device, whose threads need the host's cores.
  std::chrono::microseconds spin_wait() const { return spin_wait_; }
  /// Never release this queue or its context (work may still run on them).
  void abandon() { abandoned_ = true; }
  /// Whether abandon() was called.
  bool abandoned() const { return abandoned_; }

 private:
  ClQueue(const OpenClApi& api, cl_device_id device) : api_(api), device_(device) {}

  const OpenClApi& api_;
  cl_device_id device_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::chrono::microseconds spin_wait_{0};
  // Atomic: prepare() reads it on the certifier's compile workers.
  std::atomic<bool> abandoned_{false};
};

}  // namespace vyre::opencl
