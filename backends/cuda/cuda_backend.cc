// The cuda backend: lazy driver and device, compile, dispatch and recovery.
#include "backends/cuda/cuda_backend.h"
#include "backends/clike/host_inputs.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <vector>

#include "backends/cuda/batch_run.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/dispatch_checks.h"
#include "backends/cuda/lowering.h"
#include "backends/cuda/module_cache.h"
#include "backends/elapsed_ms.h"

namespace vyre::cuda {
namespace {

/// Modules kept per context; a certification run compiles far more programs.
constexpr size_t kModuleCacheCapacity = 256;

/// Why a backend made without a lowering cannot certify anything.
constexpr const char* kNoLowering =
    "this build's cuda backend has no CUDA C lowering: it runs CUDA C kernels given to it "
    "(CudaProgram) but cannot translate vyre programs";

DispatchOutcome failed(Status status, std::string message) {
  return {status, std::move(message), {}, {}};
}

}  // namespace

/// The context and its module cache, as one caller holds them: shared, so a
/// compile worker loading a module keeps them alive through a recovery that
/// replaces them.
struct ContextHandles {
  std::shared_ptr<CudaContext> context;
  std::shared_ptr<ModuleCache> modules;
};

/// A dispatch ready to run: its context current, its kernel loaded.
struct ReadyDispatch {
  ContextHandles handles;
  std::shared_ptr<const LoadedKernel> kernel;
  const KernelInterface* iface = nullptr;
  double setup_ms = 0;
};

// The run's dispatches come from one thread; compile() and prepare() may come
// from others at the same time (compiles_concurrently), so what they share
// (the driver, the device, the current context and its modules) is taken
// under `mutex`.
struct CudaBackend::State {
  BackendOptions options;
  KernelLowering lowering;
  std::mutex mutex;
  std::optional<CudaApi> api;
  std::optional<NvrtcApi> nvrtc;
  std::optional<CudaDevice> device;
  std::optional<NvrtcTarget> target;
  std::optional<Error> device_error;  // Sticky: a missing driver or device stays missing.
  ContextHandles current;
  // Contexts abandoned with hung work: never destroyed (see CudaContext).
  std::vector<std::shared_ptr<CudaContext>> abandoned;
  std::atomic<uint64_t> kernels_compiled{0};
  uint64_t contexts_created = 0;

  ~State() { current = {}; }

  /// The chosen device, found on first use.
  Result<const CudaDevice*> get_device() {
    std::lock_guard lock(mutex);
    return device_locked();
  }

  /// The current context, created on first use and after each recovery.
  Result<ContextHandles> get_context() {
    std::lock_guard lock(mutex);
    Result<const CudaDevice*> d = device_locked();
    if (!d.ok()) return d.error();
    if (!current.context) {
      Result<std::unique_ptr<CudaContext>> created = CudaContext::create(*api, **d);
      if (!created.ok()) return created.error();
      current.context = std::move(*created);
      current.modules = std::make_shared<ModuleCache>(*api, current.context, kModuleCacheCapacity);
      ++contexts_created;
    }
    return current;
  }

  /// The current context if one is open, for prepare().
  std::optional<ContextHandles> open_context() {
    std::lock_guard lock(mutex);
    if (!current.context) return std::nullopt;
    return current;
  }

  /// After a hang (abandoned) or a fault (lost), drop the context so that the
  /// next dispatch gets a new one.
  void recover() {
    std::lock_guard lock(mutex);
    if (!current.context || current.context->releases()) return;
    if (current.context->abandoned()) abandoned.push_back(current.context);
    current = {};
  }

  /// Everything a dispatch or batch does before it runs: host-ABI and device
  /// checks, the context, NVRTC, the module; a DispatchOutcome when it fails.
  Result<ReadyDispatch, DispatchOutcome> ready(const CompiledProgram& compiled,
                                               const BufferSet& inputs, const Grid& grid) {
    const auto* program = dynamic_cast<const CudaProgram*>(&compiled);
    if (program == nullptr) {
      return failed(Status::Error, "the program was compiled by another backend than `cuda`");
    }
    ReadyDispatch r;
    r.iface = &program->lowered().iface;
    if (Result<Ok> valid = clike::check_host_inputs(*r.iface, inputs, grid); !valid.ok()) {
      return failed(Status::Error, valid.error().message);
    }
    Result<ContextHandles> handles = get_context();
    if (!handles.ok()) return failed(Status::Error, handles.error().message);
    r.handles = *handles;
    const CudaDevice& chosen = *device;
    if (auto limit = exceeded_limit(*r.iface, inputs, grid, chosen.limits)) {
      return failed(Status::NotSupported, *limit);
    }
    if (!r.handles.context->make_current()) {
      return failed(Status::Error, "cannot make the CUDA context current on this thread");
    }
    const auto start = std::chrono::steady_clock::now();
    bool compiled_now = false;
    Result<std::shared_ptr<const KernelImage>> image =
        program->image(*nvrtc, *target, compiled_now);
    kernels_compiled += compiled_now ? 1 : 0;
    if (!image.ok()) return failed(Status::CompileError, image.error().message);
    bool loaded = false;
    Result<std::shared_ptr<const LoadedKernel>> kernel =
        r.handles.modules->get(program->id(), **image, chosen.capabilities.device_name, loaded);
    if (!kernel.ok()) return failed(Status::CompileError, kernel.error().message);
    r.kernel = *kernel;
    r.setup_ms = compiled_now || loaded ? ms_since(start) : 0.0;
    if (auto limit = exceeded_kernel_limit(*r.iface, r.kernel->max_threads_per_block,
                                           r.kernel->shared_bytes, chosen.limits)) {
      return failed(Status::NotSupported, *limit);
    }
    return r;
  }

 private:
  Result<const CudaDevice*> device_locked() {
    if (!device && !device_error) find_device();
    if (device_error) return *device_error;
    return &*device;
  }

  void find_device() {
    Result<CudaApi> opened = CudaApi::open();
    if (!opened.ok()) {
      device_error = opened.error();
      return;
    }
    api = *opened;
    Result<std::vector<CudaDevice>> all = list_devices(*api);
    Result<CudaDevice> chosen =
        all.ok() ? select_device(*all, options.device) : Result<CudaDevice>(all.error());
    if (!chosen.ok()) {
      device_error = chosen.error();
      return;
    }
    int driver_version = 0;
    api->cuDriverGetVersion(&driver_version);
    Result<NvrtcApi> compiler = NvrtcApi::open(driver_version);
    if (!compiler.ok()) {
      device_error = compiler.error();
      return;
    }
    Result<NvrtcTarget> t = nvrtc_target(chosen->compute_capability, compiler->supported_archs);
    if (!t.ok()) {
      device_error = Error{t.error().message + " (NVRTC: " + compiler->library + ")"};
      return;
    }
    chosen->capabilities.driver +=
        ", NVRTC " + std::to_string(compiler->major) + "." + std::to_string(compiler->minor) +
        " (" + (t->cubin ? "sm_" : "PTX for compute_") + std::to_string(t->arch) + ")";
    nvrtc = std::move(*compiler);
    target = std::move(*t);
    device = std::move(*chosen);
  }
};

CudaBackend::CudaBackend(BackendOptions options, KernelLowering lowering)
    : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
  state_->lowering = std::move(lowering);
}

CudaBackend::~CudaBackend() = default;

Capabilities CudaBackend::probe() {
  Result<const CudaDevice*> device = state_->get_device();
  if (!device.ok()) {
    Capabilities none;
    none.unavailable = device.error().message;
    return none;
  }
  Capabilities caps = (*device)->capabilities;
  if (!state_->lowering) caps.unavailable = kNoLowering;
  return caps;
}

CompileOutcome CudaBackend::compile(const Program& program) {
  if (!state_->lowering) return {Status::NotSupported, kNoLowering, nullptr};
  LoweringOutcome lowered = state_->lowering(program, state_->options.loop_iteration_budget);
  if (lowered.status != Status::Ok) return {lowered.status, std::move(lowered.message), nullptr};
  return {Status::Ok, "", std::make_shared<CudaProgram>(std::move(lowered.kernel))};
}

DispatchOutcome CudaBackend::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                      const Grid& grid) {
  Result<ReadyDispatch, DispatchOutcome> r = state_->ready(program, inputs, grid);
  if (!r.ok()) return r.error();
  const BatchRequest request{*r->kernel,
                             *r->iface,
                             inputs,
                             grid,
                             BatchOptions{},
                             state_->options.fence_timeout,
                             state_->device->capabilities.device_name};
  BatchResult result = run_batch(*state_->api, *r->handles.context, request);
  state_->recover();
  DispatchOutcome outcome{result.outcome.status, std::move(result.outcome.message),
                          std::move(result.outcome.first_outputs), result.timing};
  outcome.timing.setup_ms = r->setup_ms;
  return outcome;
}

BatchOutcome CudaBackend::dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                                        const Grid& grid, const BatchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Result<ReadyDispatch, DispatchOutcome> r = state_->ready(program, inputs, grid);
  BatchOutcome outcome;
  if (!r.ok()) {
    outcome.status = r.error().status;
    outcome.message = r.error().message;
  } else {
    const BatchRequest request{*r->kernel,
                               *r->iface,
                               inputs,
                               grid,
                               options,
                               state_->options.fence_timeout,
                               state_->device->capabilities.device_name};
    outcome = run_batch(*state_->api, *r->handles.context, request).outcome;
    outcome.timing.setup_ms = r->setup_ms;
    state_->recover();
  }
  finish_batch_timing(outcome, ms_since(start));
  return outcome;
}

void CudaBackend::prepare(const CompiledProgram& compiled) {
  const auto* program = dynamic_cast<const CudaProgram*>(&compiled);
  if (program == nullptr) return;
  std::optional<ContextHandles> handles = state_->open_context();
  if (!handles || !handles->context->make_current()) return;
  bool compiled_now = false;
  Result<std::shared_ptr<const KernelImage>> image =
      program->image(*state_->nvrtc, *state_->target, compiled_now);
  state_->kernels_compiled += compiled_now ? 1 : 0;
  if (!image.ok()) return;  // The dispatch reports it.
  bool loaded = false;
  (void)handles->modules->get(program->id(), **image, state_->device->capabilities.device_name,
                              loaded);
}

uint64_t CudaBackend::kernels_compiled() const {
  return state_->kernels_compiled;
}
uint64_t CudaBackend::contexts_created() const {
  return state_->contexts_created;
}

std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& options) {
  return std::make_unique<CudaBackend>(options, lower_for_backend);
}

}  // namespace vyre::cuda
