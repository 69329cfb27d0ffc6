// CUDA devices: enumeration, selection by BackendOptions::device, probing,
// and the context and stream a backend runs on.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "backends/cuda/cuda_api.h"
#include "backends/cuda/dispatch_checks.h"
#include "backends/cuda/nvrtc_target.h"

namespace vyre::cuda {

/// One device, as probed.
struct CudaDevice {
  CUdevice device = 0;
  ComputeCapability compute_capability;
  Capabilities capabilities;
  DeviceLimits limits;
};

/// Every device the driver lists, in ordinal order. Errors: none listed.
Result<std::vector<CudaDevice>> list_devices(const CudaApi& api);

/// The device `selector` picks among `devices`: empty means the first; an
/// index ("1"); else the first whose name contains it, case-insensitively.
/// Errors: nothing matches (the message lists the devices).
Result<CudaDevice> select_device(const std::vector<CudaDevice>& devices, std::string_view selector);

/// A context of our own (never the primary context, which cannot be replaced
/// while a hung kernel holds it) and one non-blocking stream in it. Destroyed
/// with the object unless abandoned: destroying a context whose kernel still
/// runs would wait for it.
class CudaContext {
 public:
  /// Errors: context or stream creation failed (the CUresult's name).
  static Result<std::unique_ptr<CudaContext>> create(const CudaApi& api, const CudaDevice& device);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  /// Makes the context current on the calling thread (every driver call
  /// works on the current context). False when the driver refuses.
  bool make_current() const;
  CUstream stream() const { return stream_; }
  /// Never destroy this context or release what it holds (a kernel may still run).
  void abandon() { abandoned_ = true; }
  bool abandoned() const { return abandoned_; }
  /// The context is lost to a fault (is_sticky_error): what it holds needs no
  /// release (the driver refuses every call) and the context is destroyed.
  void mark_lost() { lost_ = true; }
  /// Whether resources in it should be released one by one.
  bool releases() const { return !abandoned_ && !lost_; }

 private:
  explicit CudaContext(const CudaApi& api) : api_(api) {}

  const CudaApi& api_;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  // Atomic: prepare() reads them on the certifier's compile workers.
  std::atomic<bool> abandoned_{false};
  std::atomic<bool> lost_{false};
};

}  // namespace vyre::cuda
