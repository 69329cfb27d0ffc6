// The opencl backend: lazy device, compile, dispatch and recovery.
#include "backends/opencl/opencl_backend.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "backends/clike/host_inputs.h"
#include "backends/disk_cache.h"
#include "backends/opencl/batch_run.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/dispatch_run.h"
#include "backends/opencl/kernel_cache.h"
#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {
namespace {

/// Kernels kept per context; a certification run compiles far more programs.
constexpr size_t kKernelCacheCapacity = 1024;
/// Most threads that build kernels ahead, per context.
constexpr unsigned kMaxBuilderThreads = 16;
/// Bytes of free buffers kept per context for later dispatches.
constexpr uint64_t kBufferPoolBytes = uint64_t{256} << 20;

/// What names `device`'s compiler in the disk cache's keys: a binary is
/// reused only by the same platform, driver version, device and options.
std::string device_key(const ClDevice& device) {
  const Capabilities& c = device.capabilities;
  return "driver: " + c.driver + "\napi: " + c.api + "\ndevice: " + c.device_name +
         "\noptions: " + kBuildOptions;
}

}  // namespace

/// The queue and its kernel cache, as one caller holds them: shared, so a
/// compile worker building a kernel keeps them alive through a recovery
/// that replaces them.
struct QueueHandles {
  std::shared_ptr<ClQueue> queue;
  std::shared_ptr<KernelCache> kernels;
};

// The run's dispatches come from one thread; compile() and prepare() may
// come from others at the same time (compiles_concurrently), so what they
// share (the device, the current queue and its kernel cache) is taken under
// `mutex`. The buffer pool is the dispatching thread's alone.
struct OpenClBackend::State {
  BackendOptions options;
  std::mutex mutex;
  std::optional<OpenClApi> api;
  std::optional<ClDevice> device;
  std::optional<Error> device_error;  // Sticky: a missing loader or device stays missing.
  QueueHandles current;
  std::unique_ptr<BufferPool> buffers;
  // Queues abandoned with hung work: never released (see ClQueue).
  std::vector<std::shared_ptr<ClQueue>> abandoned;
  uint64_t contexts_created = 0;
  std::shared_ptr<BuildCounts> counts = std::make_shared<BuildCounts>();
  /// Built programs between runs; null without BackendOptions::cache_dir.
  std::unique_ptr<DiskCache> disk;
  std::optional<uint32_t> perturbed_run;  // Test only (perturb_run_for_testing).

  ~State() {
    buffers.reset();
    current = {};
  }

  /// The chosen device, found on first use.
  Result<const ClDevice*> get_device() {
    std::lock_guard lock(mutex);
    return device_locked();
  }

  /// The current queue, created on first use and after each recovery.
  Result<QueueHandles> get_queue() {
    std::lock_guard lock(mutex);
    Result<const ClDevice*> d = device_locked();
    if (!d.ok()) return d.error();
    if (!current.queue) {
      Result<std::unique_ptr<ClQueue>> created = ClQueue::create(*api, **d);
      if (!created.ok()) return created.error();
      current.queue = std::move(*created);
      auto builder = std::make_unique<ProgramBuilder>(
          *api, current.queue, disk.get(), device_key(**d), (*d)->capabilities.device_name, counts);
      current.kernels = std::make_shared<KernelCache>(
          std::move(builder), kKernelCacheCapacity,
          std::clamp(std::thread::hardware_concurrency(), 1u, kMaxBuilderThreads),
          ((*d)->type & CL_DEVICE_TYPE_GPU) != 0 ? kFewestKernelsPerGpuBuild : 1);
      buffers = std::make_unique<BufferPool>(*api, *current.queue, (*d)->limits.max_mem_alloc_size,
                                             kBufferPoolBytes);
      ++contexts_created;
    }
    return current;
  }

  /// After a hang (the queue was abandoned) or a failed kernel, drop the
  /// queue so that the next dispatch gets a fresh context.
  void recover(Status status) {
    QueueHandles dropped;  // Let go after the lock: its builders finish their builds first.
    std::lock_guard lock(mutex);
    const bool hung = current.queue && current.queue->abandoned();
    if (!current.queue || (!hung && status != Status::DeviceLost)) return;
    buffers.reset();  // Releases nothing on an abandoned queue.
    if (hung) abandoned.push_back(current.queue);
    dropped = std::move(current);
    current = {};
  }

 private:
  Result<const ClDevice*> device_locked() {
    if (!device && !device_error) {
      Result<OpenClApi> opened = OpenClApi::open();
      if (!opened.ok()) {
        device_error = opened.error();
      } else {
        api = *opened;
        Result<std::vector<ClDevice>> all = list_devices(*api);
        Result<ClDevice> chosen =
            all.ok() ? select_device(*all, options.device) : Result<ClDevice>(all.error());
        if (chosen.ok() && !chosen->capabilities.unavailable.empty()) {
          chosen = Error{chosen->capabilities.unavailable};
        }
        if (chosen.ok()) {
          device = *chosen;
        } else {
          device_error = chosen.error();
        }
      }
    }
    if (device_error) return *device_error;
    return &*device;
  }
};

OpenClBackend::OpenClBackend(BackendOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
  if (!state_->options.cache_dir.empty()) {
    state_->disk = std::make_unique<DiskCache>(state_->options.cache_dir);
  }
}

OpenClBackend::~OpenClBackend() = default;

Capabilities OpenClBackend::probe() {
  Result<const ClDevice*> device = state_->get_device();
  if (!device.ok()) {
    Capabilities none;
    none.unavailable = device.error().message;
    return none;
  }
  return (*device)->capabilities;
}

CompileOutcome OpenClBackend::compile(const Program& program) {
  Result<LoweredKernel> lowered = lower_program(program, state_->options.loop_iteration_budget);
  if (!lowered.ok()) return {lowering_failure_status(program), lowered.error().message, nullptr};
  return {Status::Ok, "", std::make_shared<OpenClProgram>(std::move(*lowered))};
}

std::vector<Encoding> OpenClBackend::encodings() const {
  return {Encoding::ClOptDisable};
}

CompileOutcome OpenClBackend::compile_encoded(const Program& program, Encoding encoding) {
  if (encoding != Encoding::ClOptDisable) return Backend::compile_encoded(program, encoding);
  Result<LoweredKernel> lowered = lower_program(program, state_->options.loop_iteration_budget);
  if (!lowered.ok()) return {lowering_failure_status(program), lowered.error().message, nullptr};
  lowered->source.insert(0, kOptDisableLine);
  return {Status::Ok, "", std::make_shared<OpenClProgram>(std::move(*lowered))};
}

/// A dispatch checked and its kernel found: what dispatch() and
/// dispatch_runs() both need before they touch buffers.
struct OpenClBackend::Ready {
  const OpenClProgram* program = nullptr;
  QueueHandles queue;
  std::shared_ptr<const BuiltKernel> kernel;
  double setup_ms = 0;
};

Result<OpenClBackend::Ready> OpenClBackend::ready(const CompiledProgram& compiled,
                                                  const BufferSet& inputs, const Grid& grid,
                                                  Status& status) {
  Ready r;
  r.program = dynamic_cast<const OpenClProgram*>(&compiled);
  status = Status::Error;
  if (r.program == nullptr)
    return Error{"the program was compiled by another backend than `opencl`"};
  const KernelInterface& iface = r.program->lowered().iface;
  if (Result<Ok> valid = clike::check_host_inputs(iface, inputs, grid); !valid.ok())
    return valid.error();
  Result<QueueHandles> queue = state_->get_queue();
  if (!queue.ok()) return queue.error();
  r.queue = *queue;
  const ClDevice& device = *state_->device;
  if (auto limit = exceeded_limit(iface, inputs, grid, device.limits)) {
    status = Status::NotSupported;
    return Error{*limit};
  }
  const auto setup_start = std::chrono::steady_clock::now();
  bool built = false;
  Result<std::shared_ptr<const BuiltKernel>> kernel =
      r.queue.kernels->get(r.program->lowered().source, built);
  if (!kernel.ok()) {
    status = Status::CompileError;
    return kernel.error();
  }
  r.kernel = *kernel;
  r.setup_ms = built ? std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                                 setup_start)
                           .count()
                     : 0.0;
  if (iface.workgroup_invocations() > r.kernel->max_work_group_size) {
    status = Status::NotSupported;
    return Error{
        "invocations per workgroup " + std::to_string(iface.workgroup_invocations()) +
        " exceed CL_KERNEL_WORK_GROUP_SIZE = " + std::to_string(r.kernel->max_work_group_size) +
        " of this kernel on " + device.capabilities.device_name};
  }
  return r;
}

DispatchOutcome OpenClBackend::dispatch(const CompiledProgram& compiled, const BufferSet& inputs,
                                        const Grid& grid) {
  Status status = Status::Error;
  Result<Ready> r = ready(compiled, inputs, grid, status);
  if (!r.ok()) return {status, r.error().message, {}, {}};
  const ClDevice& device = *state_->device;
  const DispatchRequest request{*r->kernel, r->program->lowered().iface, inputs, grid,
                                state_->options.fence_timeout};
  DispatchOutcome outcome = run_dispatch(*state_->api, *r->queue.queue, *state_->buffers,
                                         device.capabilities.device_name, request);
  outcome.timing.setup_ms = r->setup_ms;
  state_->recover(outcome.status);
  return outcome;
}

BatchOutcome OpenClBackend::dispatch_runs(const CompiledProgram& compiled, const BufferSet& inputs,
                                          const Grid& grid, const BatchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BatchOutcome outcome;
  Status status = Status::Error;
  Result<Ready> r = ready(compiled, inputs, grid, status);
  if (!r.ok()) {
    outcome.status = status;
    outcome.message = r.error().message;
    return outcome;
  }
  bool built = false;
  Result<std::shared_ptr<const BuiltKernel>> compare =
      r->queue.kernels->get(kCompareKernelSource, built);
  if (!compare.ok()) {
    outcome.status = Status::Error;
    outcome.message = "the comparison kernel was not built: " + compare.error().message;
    return outcome;
  }
  const ClDevice& device = *state_->device;
  const BatchRequest request{*r->kernel,
                             **compare,
                             r->program->lowered().iface,
                             inputs,
                             grid,
                             options,
                             state_->options.fence_timeout,
                             kBatchSlotBytes,
                             state_->perturbed_run};
  outcome = run_batch(*state_->api, *r->queue.queue, *state_->buffers,
                      device.capabilities.device_name, request);
  outcome.timing.setup_ms = r->setup_ms;
  state_->recover(outcome.status);
  finish_batch_timing(
      outcome,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return outcome;
}

void OpenClBackend::perturb_run_for_testing(std::optional<uint32_t> run) {
  state_->perturbed_run = run;
}

void OpenClBackend::prepare(const CompiledProgram& compiled) {
  const auto* program = dynamic_cast<const OpenClProgram*>(&compiled);
  if (program == nullptr) return;
  // Opens the context if none is open yet, so that a fresh process (process
  // isolation) builds here too, under the prepare's own time limit; the
  // kernel is queued for the builder threads, which build queued kernels in
  // groups.
  Result<QueueHandles> queue = state_->get_queue();
  if (!queue.ok()) return;
  queue->kernels->prepare(program->lowered().source);
}

uint64_t OpenClBackend::kernels_built() const {
  return state_->counts->kernels_built;
}
uint64_t OpenClBackend::kernels_loaded() const {
  return state_->counts->kernels_loaded;
}
uint64_t OpenClBackend::programs_built() const {
  return state_->counts->programs_built;
}

std::optional<DriverCacheUse> OpenClBackend::driver_cache() const {
  if (!state_->disk) return std::nullopt;
  const DiskCacheCounts c = state_->disk->counts();
  DriverCacheUse use;
  use.dir = state_->disk->dir().string();
  use.what = "OpenCL program binaries";
  use.hits = state_->counts->kernels_loaded;
  use.misses = state_->counts->kernels_built;
  use.rejected = c.rejected + state_->counts->binaries_refused;
  use.stored = c.stored;
  return use;
}
uint64_t OpenClBackend::contexts_created() const {
  return state_->contexts_created;
}

std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& options) {
  return std::make_unique<OpenClBackend>(options);
}

}  // namespace vyre::opencl
