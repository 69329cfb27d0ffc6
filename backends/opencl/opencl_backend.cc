// The opencl backend: lazy device, compile, dispatch (recovery: dispatch_lanes.cc).
#include "backends/opencl/opencl_backend.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "backends/clike/host_inputs.h"
#include "backends/clike/lowering_refusal.h"
#include "backends/disk_cache.h"
#include "backends/opencl/batch_run.h"
#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/compare_kernel.h"
#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/dispatch_lanes.h"
#include "backends/opencl/dispatch_run.h"
#include "backends/opencl/kernel_cache.h"
#include "backends/opencl/level_loop_run.h"
#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {

// compile() and prepare() may come from several threads alongside the
// dispatches (compiles_concurrently), and dispatch() and dispatch_runs()
// from several threads at once (concurrent_dispatches): each dispatch holds
// a lane of its own (dispatch_lanes.h: a queue, a buffer pool, kernel
// objects), and what they share (the device, the current context and its
// kernel cache) is taken under a lock.
struct OpenClBackend::State {
  BackendOptions options;
  std::mutex mutex;  ///< Guards the device's discovery.
  std::optional<OpenClApi> api;
  std::optional<ClDevice> device;
  std::optional<Error> device_error;  // Sticky: a missing loader or device stays missing.
  std::shared_ptr<BuildCounts> counts = std::make_shared<BuildCounts>();
  /// Built programs between runs; null without BackendOptions::cache_dir.
  std::unique_ptr<DiskCache> disk;
  /// The context and its lanes, made with the device.
  std::unique_ptr<DispatchLanes> lanes;
  std::optional<uint32_t> perturbed_run;  // Test only (perturb_run_for_testing).

  ~State() { lanes.reset(); }

  /// The chosen device, found on first use.
  Result<const ClDevice*> get_device() {
    std::lock_guard lock(mutex);
    if (!device && !device_error) find_device();
    if (device_error) return *device_error;
    return &*device;
  }

  /// The context and lanes of the device, once it is found.
  Result<DispatchLanes*> get_lanes() {
    Result<const ClDevice*> d = get_device();
    if (!d.ok()) return d.error();
    return lanes.get();
  }

 private:
  void find_device() {
    Result<OpenClApi> opened = OpenClApi::open();
    if (!opened.ok()) {
      device_error = opened.error();
      return;
    }
    api = *opened;
    Result<std::vector<ClDevice>> all = list_devices(*api);
    Result<ClDevice> chosen =
        all.ok() ? select_device(*all, options.device) : Result<ClDevice>(all.error());
    if (chosen.ok() && !chosen->capabilities.unavailable.empty()) {
      chosen = Error{chosen->capabilities.unavailable};
    }
    if (!chosen.ok()) {
      device_error = chosen.error();
      return;
    }
    device = *chosen;
    lanes = std::make_unique<DispatchLanes>(*api, *device, disk.get(), counts);
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

namespace {

/// compile()'s outcome for `program` lowered as `lowered`, with `encoding_line`
/// (an Encoding's mark, or nothing) before the kernel's source.
CompileOutcome compiled(const Program& program, Result<LoweredKernel> lowered,
                        std::string_view encoding_line) {
  if (!lowered.ok()) {
    const bool not_supported = clike::refused_only_by_limits(program, beyond_opencl_c_limits);
    return {not_supported ? Status::NotSupported : Status::CompileError, lowered.error().message,
            nullptr};
  }
  lowered->source.insert(0, encoding_line);
  return {Status::Ok, "", std::make_shared<OpenClProgram>(std::move(*lowered))};
}

}  // namespace

CompileOutcome OpenClBackend::compile(const Program& program) {
  return compiled(program, lower_program(program, state_->options.loop_iteration_budget), "");
}

std::vector<Encoding> OpenClBackend::encodings() const {
  return {Encoding::ClOptDisable};
}

CompileOutcome OpenClBackend::compile_encoded(const Program& program, Encoding encoding) {
  if (encoding != Encoding::ClOptDisable) return Backend::compile_encoded(program, encoding);
  return compiled(program, lower_program(program, state_->options.loop_iteration_budget),
                  kOptDisableLine);
}

/// A dispatch checked, its lane taken and its kernel found: what dispatch()
/// and dispatch_runs() both need before they touch buffers.
struct OpenClBackend::Ready {
  const OpenClProgram* program = nullptr;
  /// Handed back (with the dispatch's status, LaneLease::done) when the
  /// dispatch is over.
  std::optional<LaneLease> lease;
  /// The lane's kernel object (kernel_for_lane), and the kernel cache's,
  /// whose other objects the lane's streams use.
  std::shared_ptr<const BuiltKernel> kernel;
  std::shared_ptr<const BuiltKernel> shared;
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
  Result<DispatchLanes*> lanes = state_->get_lanes();
  if (!lanes.ok()) return lanes.error();
  Result<LaneLease> lease = (*lanes)->take();
  if (!lease.ok()) return lease.error();
  r.lease.emplace(std::move(*lease));
  const ClDevice& device = *state_->device;
  if (auto limit = exceeded_limit(iface, inputs, grid, device.limits)) {
    status = Status::NotSupported;
    return Error{*limit};
  }
  const auto setup_start = std::chrono::steady_clock::now();
  bool built = false;
  Result<std::shared_ptr<const BuiltKernel>> kernel =
      r.lease->handles().kernels->get(r.program->lowered().source, built);
  if (!kernel.ok()) {
    status = Status::CompileError;
    return kernel.error();
  }
  Result<std::shared_ptr<const BuiltKernel>> mine =
      kernel_for_lane(*kernel, kernel_object_index(r.lease->lane(), 0));
  if (!mine.ok()) return Error{mine.error().message + " on " + device.capabilities.device_name};
  r.kernel = *mine;
  r.shared = *kernel;
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
  DispatchLane& lane = r->lease->lane();
  const DispatchRequest request{*r->kernel, r->program->lowered().iface, inputs, grid,
                                state_->options.fence_timeout};
  DispatchOutcome outcome = run_dispatch(*state_->api, *lane.queue, *lane.buffers,
                                         device.capabilities.device_name, request);
  outcome.timing.setup_ms = r->setup_ms;
  r->lease->done(outcome.status);
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
  DispatchLane& lane = r->lease->lane();
  bool built = false;
  Result<std::shared_ptr<const BuiltKernel>> compare =
      r->lease->handles().kernels->get(kCompareKernelSource, built);
  Result<std::shared_ptr<const BuiltKernel>> lane_compare = compare;
  if (compare.ok()) lane_compare = kernel_for_lane(*compare, kernel_object_index(lane, 0));
  if (!lane_compare.ok()) {
    outcome.status = Status::Error;
    outcome.message = "the comparison kernel was not built: " + lane_compare.error().message;
    return outcome;
  }
  const ClDevice& device = *state_->device;
  BatchRequest request{*r->kernel,
                       **lane_compare,
                       r->program->lowered().iface,
                       inputs,
                       grid,
                       options,
                       state_->options.fence_timeout,
                       kBatchSlotBytes,
                       state_->perturbed_run,
                       {}};
  // Kernel objects of the streams, alive until the batch is over.
  std::vector<std::shared_ptr<const BuiltKernel>> stream_kernels;
  const uint32_t queues =
      std::min(state_->options.batch_queues != 0 ? state_->options.batch_queues
                                                 : default_batch_queues(device.type),
               kBatchQueues);
  if (queues > 1 && options.runs > 1 && r->lease->make_streams(queues - 1).ok()) {
    for (size_t stream = 1; stream < queues; ++stream) {
      const size_t index = kernel_object_index(lane, stream);
      Result<std::shared_ptr<const BuiltKernel>> kernel = kernel_for_lane(r->shared, index);
      Result<std::shared_ptr<const BuiltKernel>> comparison = kernel_for_lane(*compare, index);
      // A stream without kernel objects is left out: fewer side by side.
      if (!kernel.ok() || !comparison.ok()) break;
      stream_kernels.push_back(*kernel);
      stream_kernels.push_back(*comparison);
      request.streams.push_back({*lane.streams[stream - 1], **kernel, **comparison});
    }
  }
  outcome =
      run_batch(*state_->api, *lane.queue, *lane.buffers, device.capabilities.device_name, request);
  outcome.timing.setup_ms = r->setup_ms;
  r->lease->done(outcome.status);
  finish_batch_timing(
      outcome,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return outcome;
}

LevelLoopOutcome OpenClBackend::dispatch_levels(const CompiledProgram& compiled,
                                                const BufferSet& state, const Grid& grid,
                                                const LevelLoop& loop) {
  const auto* program = dynamic_cast<const OpenClProgram*>(&compiled);
  if (program == nullptr || !level_loop_fits(program->lowered().iface, state, loop)) {
    return Backend::dispatch_levels(compiled, state, grid, loop);
  }
  Status status = Status::Error;
  Result<Ready> r = ready(compiled, state, grid, status);
  if (!r.ok()) {
    LevelLoopOutcome refused;
    refused.status = status;
    refused.message = r.error().message;
    return refused;
  }
  DispatchLane& lane = r->lease->lane();
  const LevelLoopRequest request{*r->kernel, r->program->lowered().iface,  state, grid,
                                 loop,       state_->options.fence_timeout};
  LevelLoopOutcome outcome = run_level_loop(*state_->api, *lane.queue, *lane.buffers,
                                            state_->device->capabilities.device_name, request);
  r->lease->done(outcome.status);
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
  Result<DispatchLanes*> lanes = state_->get_lanes();
  if (!lanes.ok()) return;
  Result<ContextHandles> context = (*lanes)->current();
  if (!context.ok()) return;
  context->kernels->prepare(program->lowered().source);
}

uint32_t OpenClBackend::concurrent_dispatches() const {
  if (state_->options.dispatch_lanes != 0) return state_->options.dispatch_lanes;
  Result<const ClDevice*> device = state_->get_device();
  if (!device.ok()) return 1;
  return default_dispatch_lanes((*device)->type, std::thread::hardware_concurrency());
}

uint32_t OpenClBackend::useful_processes() const {
  Result<const ClDevice*> device = state_->get_device();
  if (!device.ok()) return 1;
  return default_processes((*device)->type);
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
  Result<DispatchLanes*> lanes = state_->get_lanes();
  return lanes.ok() ? (*lanes)->contexts_created() : 0;
}

std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& options) {
  return std::make_unique<OpenClBackend>(options);
}

}  // namespace vyre::opencl
