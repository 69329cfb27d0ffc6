// OpenCL platforms and devices: enumeration, selection by BackendOptions::device,
// probing, and the context and queues a backend runs on.
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

struct BuiltKernel;

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

/// A context on one device, shared by its queues (one per dispatch lane) and
/// by the programs built in it. Released on destruction unless abandoned:
/// once a queue of it hung, that work may still use its programs.
class ClContext {
 public:
  /// Errors: context creation failed (the OpenCL error's name).
  static Result<std::shared_ptr<ClContext>> create(const OpenClApi& api, const ClDevice& device);
  ~ClContext();
  ClContext(const ClContext&) = delete;
  ClContext& operator=(const ClContext&) = delete;

  /// The context and the device it is on.
  cl_context context() const { return context_; }
  cl_device_id device() const { return device_; }
  /// Never release this context (a queue of it hung; see ClQueue::abandon).
  void abandon() { abandoned_ = true; }
  /// Whether abandon() was called.
  bool abandoned() const { return abandoned_; }

 private:
  ClContext(const OpenClApi& api, cl_device_id device) : api_(api), device_(device) {}

  const OpenClApi& api_;
  cl_device_id device_;
  cl_context context_ = nullptr;
  // Atomic: queues of other lanes and builder threads read it.
  std::atomic<bool> abandoned_{false};
};

/// An in-order queue on a context. Released on destruction unless abandoned:
/// a queue with hung work is never released, since releasing it would wait
/// for that work (or is undefined while it runs).
class ClQueue {
 public:
  /// A queue on `context`, which is on `device`. Errors: queue creation
  /// failed (the OpenCL error's name).
  static Result<std::unique_ptr<ClQueue>> create(const OpenClApi& api,
                                                 std::shared_ptr<ClContext> context,
                                                 const ClDevice& device);
  /// A queue on a new context of its own.
  static Result<std::unique_ptr<ClQueue>> create(const OpenClApi& api, const ClDevice& device);
  ~ClQueue();
  ClQueue(const ClQueue&) = delete;
  ClQueue& operator=(const ClQueue&) = delete;

  /// The context, its in-order queue and the device they are on.
  cl_context context() const { return context_->context(); }
  cl_command_queue queue() const { return queue_; }
  cl_device_id device() const { return context_->device(); }
  /// The context, shared with the other queues and the programs built in it.
  const std::shared_ptr<ClContext>& shared_context() const { return context_; }
  /// How long a wait on this queue asks an event's status before it sleeps
  /// (wait_for): a while on a GPU, whose small commands end within tens of
  /// microseconds; none on a CPU device, whose threads need the host's cores.
  std::chrono::microseconds spin_wait() const { return spin_wait_; }
  /// How much longer than its fence timeout the first wait for a kernel
  /// object that never ran may take (first_run_allowance).
  std::chrono::milliseconds first_run_allowance(const BuiltKernel& kernel,
                                                std::chrono::milliseconds fence) const;
  /// Never release this queue or its context (work may still run on them).
  void abandon() {
    abandoned_ = true;
    context_->abandon();
  }
  /// Whether abandon() was called on this queue.
  bool abandoned() const { return abandoned_; }

 private:
  ClQueue(const OpenClApi& api, std::shared_ptr<ClContext> context)
      : api_(api), context_(std::move(context)) {}

  const OpenClApi& api_;
  std::shared_ptr<ClContext> context_;
  cl_command_queue queue_ = nullptr;
  std::chrono::microseconds spin_wait_{0};
  /// Whether the device may compile a kernel at its first enqueue: a CPU
  /// device (PoCL builds the work-group function for the local size then).
  bool compiles_at_first_enqueue_ = false;
  // Atomic: the backend reads it when the dispatch that hung hands the lane back.
  std::atomic<bool> abandoned_{false};
};

}  // namespace vyre::opencl
