// The opencl backend: lazy device, compile, dispatch and recovery.
#include "backends/opencl/opencl_backend.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "backends/opencl/buffer_pool.h"
#include "backends/opencl/dispatch_checks.h"
#include "backends/opencl/dispatch_run.h"
#include "backends/opencl/kernel_cache.h"
#include "backends/opencl/opencl_device.h"

namespace vyre::opencl {
namespace {

/// Kernels kept per context; a certification run compiles far more programs.
constexpr size_t kKernelCacheCapacity = 256;
/// Bytes of free buffers kept per context for later dispatches.
constexpr uint64_t kBufferPoolBytes = uint64_t{256} << 20;

std::atomic<uint64_t> next_program_id{1};

}  // namespace

OpenClProgram::OpenClProgram(LoweredKernel lowered)
    : lowered_(std::move(lowered)), id_(next_program_id.fetch_add(1)) {}

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
  std::atomic<uint64_t> kernels_built{0};
  uint64_t contexts_created = 0;

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
      current.kernels = std::make_shared<KernelCache>(*api, current.queue, kKernelCacheCapacity);
      buffers = std::make_unique<BufferPool>(*api, *current.queue, (*d)->limits.max_mem_alloc_size,
                                             kBufferPoolBytes);
      ++contexts_created;
    }
    return current;
  }

  /// After a hang (the queue was abandoned) or a failed kernel, drop the
  /// queue so that the next dispatch gets a fresh context.
  void recover(Status status) {
    std::lock_guard lock(mutex);
    const bool hung = current.queue && current.queue->abandoned();
    if (!current.queue || (!hung && status != Status::DeviceLost)) return;
    buffers.reset();  // Releases nothing on an abandoned queue.
    if (hung) abandoned.push_back(current.queue);
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

DispatchOutcome OpenClBackend::dispatch(const CompiledProgram& compiled, const BufferSet& inputs,
                                        const Grid& grid) {
  const auto* program = dynamic_cast<const OpenClProgram*>(&compiled);
  if (program == nullptr) {
    return {Status::Error, "the program was compiled by another backend than `opencl`", {}, {}};
  }
  const KernelInterface& iface = program->lowered().iface;
  if (Result<Ok> valid = check_inputs(iface, inputs, grid); !valid.ok()) {
    return {Status::Error, valid.error().message, {}, {}};
  }
  Result<QueueHandles> queue = state_->get_queue();
  if (!queue.ok()) return {Status::Error, queue.error().message, {}, {}};
  const ClDevice& device = *state_->device;
  if (auto limit = exceeded_limit(iface, inputs, grid, device.limits)) {
    return {Status::NotSupported, *limit, {}, {}};
  }

  const auto setup_start = std::chrono::steady_clock::now();
  bool built = false;
  Result<std::shared_ptr<const BuiltKernel>> kernel = queue->kernels->get(
      program->id(), program->lowered(), device.capabilities.device_name, built);
  if (!kernel.ok()) return {Status::CompileError, kernel.error().message, {}, {}};
  const double setup_ms = built ? std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - setup_start)
                                      .count()
                                : 0.0;
  state_->kernels_built += built ? 1 : 0;
  if (iface.workgroup_invocations() > (*kernel)->max_work_group_size) {
    return {Status::NotSupported,
            "invocations per workgroup " + std::to_string(iface.workgroup_invocations()) +
                " exceed CL_KERNEL_WORK_GROUP_SIZE = " +
                std::to_string((*kernel)->max_work_group_size) + " of this kernel on " +
                device.capabilities.device_name,
            {},
            {}};
  }

  const DispatchRequest request{**kernel, iface, inputs, grid, state_->options.fence_timeout};
  DispatchOutcome outcome = run_dispatch(*state_->api, *queue->queue, *state_->buffers,
                                         device.capabilities.device_name, request);
  outcome.timing.setup_ms = setup_ms;
  state_->recover(outcome.status);
  return outcome;
}

void OpenClBackend::prepare(const CompiledProgram& compiled) {
  const auto* program = dynamic_cast<const OpenClProgram*>(&compiled);
  if (program == nullptr) return;
  // Opens the context if none is open yet, so that a fresh process (process
  // isolation) builds here too, under the prepare's own time limit.
  Result<QueueHandles> queue = state_->get_queue();
  if (!queue.ok()) return;
  bool built = false;
  // A failed build is not kept: the dispatch builds again and reports it.
  (void)queue->kernels->get(program->id(), program->lowered(),
                            state_->device->capabilities.device_name, built);
  state_->kernels_built += built ? 1 : 0;
}

uint64_t OpenClBackend::kernels_built() const {
  return state_->kernels_built;
}
uint64_t OpenClBackend::contexts_created() const {
  return state_->contexts_created;
}

std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& options) {
  return std::make_unique<OpenClBackend>(options);
}

}  // namespace vyre::opencl
