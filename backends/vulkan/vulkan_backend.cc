// The vulkan backend: lazy device, compile, dispatch and recovery.
#include "backends/vulkan/vulkan_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <variant>
#include <vector>

#include "backends/clike/host_inputs.h"
#include "backends/clike/lowering_refusal.h"
#include "backends/elapsed_ms.h"
#include "backends/mutants/mutant.h"
#include "backends/vulkan/batch_run.h"
#include "backends/vulkan/bounded_lowering.h"
#include "backends/vulkan/compare_shader.h"
#include "backends/vulkan/device_buffers.h"
#include "backends/vulkan/dispatch_checks.h"
#include "backends/vulkan/dispatch_run.h"
#include "backends/vulkan/pipeline_cache.h"
#include "backends/vulkan/vulkan_device.h"
#include "spec/validate/validator.h"

namespace vyre::vulkan {
namespace {

/// Pipelines kept per device; a certification run compiles far more programs.
constexpr size_t kPipelineCacheCapacity = 128;
/// Threads dispatching at once, at most: past this many, one more thread's
/// round trips no longer hide behind the others' on a discrete GPU.
constexpr uint32_t kMaxConcurrentDispatches = 8;
/// Most bytes of bound buffers a dispatch on a discrete GPU keeps in host
/// memory rather than staging through device memory.
constexpr uint64_t kInHostMemoryBytes = 64 << 10;

/// Most bytes of bound buffers a dispatch on a CPU device runs untimed with:
/// there timestamps cost more than a small dispatch. lavapipe writes each
/// through a scene of llvmpipe's rasterizer threads and reads them only after
/// waiting for the whole device; measured: 100 runs of a 300-level dataflow
/// chain (30,000 dispatches of a few hundred bytes) took 6.4-6.8 s timed and
/// 1.8 s untimed. A larger dispatch, and a batch (a few submissions for many
/// runs), stay timed: there the timestamps' cost is a small part.
constexpr uint64_t kUntimedCpuDispatchBytes = 64 << 10;

/// Bytes the buffers of a dispatch of `iface` on `inputs` take bound.
uint64_t bound_bytes(const ShaderInterface& iface, const BufferSet& inputs) {
  uint64_t total = 0;
  for (const BoundBuffer& b : iface.buffers) total += device_buffer_bytes(inputs.at(b.name).size());
  return total;
}

/// Bytes of free buffers kept per device for later dispatches.
constexpr VkDeviceSize kBufferPoolBytes = VkDeviceSize{256} << 20;

std::atomic<uint64_t> next_program_id{1};

}  // namespace

VulkanProgram::VulkanProgram(LoweredProgram lowered)
    : lowered_(std::move(lowered)), id_(next_program_id.fetch_add(1)) {}

/// The device, its pipeline cache and its buffer pool, as one caller holds
/// them: shared, so that a compile worker building a pipeline, or a run
/// dispatching on another thread, keeps them alive through a recovery that
/// replaces them. Declared so that a copy going out of scope destroys the
/// pool and the cache before the device.
struct DeviceHandles {
  std::shared_ptr<VulkanDevice> device;
  std::shared_ptr<PipelineCache> pipelines;
  std::shared_ptr<BufferPool> buffers;

  /// Lets go of the pool and the cache before the device they use
  /// (assigning {} would let go of the device first).
  void reset() {
    buffers.reset();
    pipelines.reset();
    device.reset();
  }
};

struct ReadyDispatch;  // Below: what a run needs once its checks passed.

// compile() and prepare() may come from several threads alongside the
// dispatches (compiles_concurrently), and dispatch() from several threads at
// once (concurrent_dispatches), so what they share (the instance and the
// current device handles) is taken under `mutex`; the device, its pipeline
// cache and its buffer pool are thread-safe themselves.
struct VulkanBackend::State {
  BackendOptions options;
  std::mutex mutex;
  std::unique_ptr<VulkanInstance> instance;
  std::optional<Error> instance_error;  // Sticky: a missing loader or device stays missing.
  DeviceHandles current;
  // Devices abandoned with hung work: never destroyed (see VulkanDevice::abandon).
  std::vector<std::shared_ptr<VulkanDevice>> abandoned;
  std::atomic<uint64_t> pipelines_built{0};
  uint64_t devices_created = 0;
  std::optional<uint32_t> perturbed_run;
  /// The driver cache's data between runs; null without BackendOptions::cache_dir.
  std::shared_ptr<DiskCache> disk;
  std::shared_ptr<std::atomic<uint64_t>> disk_refused = std::make_shared<std::atomic<uint64_t>>(0);
  /// The lowering's modules between runs (spirv_cache.h); null without
  /// BackendOptions::cache_dir.
  std::shared_ptr<SpirvCache> spirv;

  ~State() {
    current.reset();
    if (!abandoned.empty() && instance) instance->leak_on_destruction();
  }

  /// The instance, created on first use.
  Result<VulkanInstance*> get_instance() {
    std::lock_guard lock(mutex);
    return instance_locked();
  }

  /// The current device, created on first use and after each recovery.
  Result<DeviceHandles> get_device() {
    std::lock_guard lock(mutex);
    Result<VulkanInstance*> inst = instance_locked();
    if (!inst.ok()) return inst.error();
    if (!current.device) {
      Result<std::unique_ptr<VulkanDevice>> created = VulkanDevice::create(**inst);
      if (!created.ok()) return created.error();
      current.device = std::move(*created);
      current.pipelines = std::make_shared<PipelineCache>(current.device, kPipelineCacheCapacity,
                                                          disk, disk_refused);
      current.buffers = std::make_shared<BufferPool>(*current.device, kBufferPoolBytes);
      ++devices_created;
    }
    return current;
  }

  /// The current device if one is open, for prepare(): building ahead never
  /// opens a device of its own.
  std::optional<DeviceHandles> open_device() {
    std::lock_guard lock(mutex);
    if (!current.device) return std::nullopt;
    return current;
  }

  /// The checks and the pipeline a run needs, or why it cannot be made.
  std::variant<DispatchOutcome, ReadyDispatch> ready(const CompiledProgram& compiled,
                                                     const BufferSet& inputs, const Grid& grid);

  /// After a hang (the device was abandoned) or a device loss, drop the
  /// device so that the next dispatch gets a fresh one.
  void recover(Status status) {
    std::lock_guard lock(mutex);
    const bool hung = current.device && current.device->abandoned();
    if (!current.device || (!hung && status != Status::DeviceLost)) return;
    if (hung) {
      abandoned.push_back(current.device);
      instance->leak_on_destruction();
    }
    current.reset();
  }

 private:
  Result<VulkanInstance*> instance_locked() {
    if (!instance && !instance_error) {
      Result<std::unique_ptr<VulkanInstance>> created = VulkanInstance::create(options.device);
      if (created.ok()) {
        instance = std::move(*created);
      } else {
        instance_error = created.error();
      }
    }
    if (instance_error) return *instance_error;
    return instance.get();
  }
};

VulkanBackend::VulkanBackend(BackendOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
  if (!state_->options.cache_dir.empty()) {
    state_->disk = std::make_shared<DiskCache>(state_->options.cache_dir);
    state_->spirv = std::make_shared<SpirvCache>(state_->options.cache_dir);
  }
}

std::optional<DriverCacheUse> VulkanBackend::driver_cache() const {
  if (!state_->disk) return std::nullopt;
  const DiskCacheCounts c = state_->disk->counts();
  DriverCacheUse use;
  use.dir = state_->disk->dir().string();
  use.what =
      "Vulkan pipeline cache (one entry per device; written when the backend or its process ends)";
  use.hits = c.hits;
  use.misses = c.misses;
  use.rejected = c.rejected + *state_->disk_refused;
  use.stored = c.stored;
  return use;
}

bool VulkanBackend::saved_for_process_exit() {
  std::lock_guard lock(state_->mutex);
  if (state_->current.pipelines) state_->current.pipelines->save();
  return true;
}

VulkanBackend::~VulkanBackend() = default;

Capabilities VulkanBackend::probe() {
  Result<VulkanInstance*> inst = state_->get_instance();
  if (!inst.ok()) {
    Capabilities none;
    none.unavailable = inst.error().message;
    return none;
  }
  return (*inst)->capabilities();
}

CompileOutcome VulkanBackend::compile(const Program& program) {
  const uint32_t budget = state_->options.loop_iteration_budget;
  // Past a device limit, a program is refused before any GLSL is written:
  // glslang spends minutes on one with tens of thousands of buffers. Without
  // a usable instance the limits are unknown and dispatch refuses instead.
  Result<VulkanInstance*> inst = state_->get_instance();
  if (inst.ok() && validate(program).empty()) {
    if (auto limit =
            exceeded_program_limit(shader_interface_of(program, budget), (*inst)->limits())) {
      return {Status::NotSupported, "the program needs more than the device offers: " + *limit,
              nullptr};
    }
  }
  // glslang builds its built-in symbol tables on its first compile in the
  // process (about 0.3 s); the compare shader's compile does that outside
  // the budget, which is for this program's lowering alone.
  if (Result<SpirvWords> warm = compare_shader_spirv(); !warm.ok()) {
    return {Status::Error, warm.error().message, nullptr};
  }
  const std::chrono::milliseconds limit = state_->options.fence_timeout;
  std::optional<Result<LoweredProgram>> lowered =
      lower_within(program, budget, limit, state_->spirv);
  if (!lowered) {
    return {Status::Timeout,
            "lowering the program to SPIR-V took longer than " + std::to_string(limit.count()) +
                " ms (--timeout-ms) and was abandoned; the program is too large for this backend",
            nullptr};
  }
  if (!lowered->ok()) {
    const bool not_supported = clike::refused_only_by_limits(program, beyond_glsl_limits);
    return {not_supported ? Status::NotSupported : Status::CompileError, lowered->error().message,
            nullptr};
  }
  return {Status::Ok, "", std::make_shared<VulkanProgram>(std::move(**lowered))};
}

std::vector<Encoding> VulkanBackend::encodings() const {
  return {Encoding::SpirvOptPerformance, Encoding::SpirvOptSize};
}

CompileOutcome VulkanBackend::compile_encoded(const Program& program, Encoding encoding) {
  if (encoding != Encoding::SpirvOptPerformance && encoding != Encoding::SpirvOptSize) {
    return Backend::compile_encoded(program, encoding);
  }
  CompileOutcome emitted = compile(program);
  if (emitted.status != Status::Ok) return emitted;
  const auto& lowered = static_cast<const VulkanProgram&>(*emitted.program).lowered();
  const SpirvRecipe recipe =
      encoding == Encoding::SpirvOptPerformance ? SpirvRecipe::Performance : SpirvRecipe::Size;
  const auto optimize = [&] { return optimize_spirv(lowered.spirv, recipe); };
  Result<SpirvWords> optimized =
      state_->spirv
          ? state_->spirv->get(name_of(recipe), std::as_bytes(std::span(lowered.spirv)), optimize)
          : optimize();
  if (!optimized.ok()) {
    // The optimizer refusing a module the validator accepted is the
    // encoding's failure to compile, named as such.
    return {Status::CompileError, optimized.error().message, nullptr};
  }
  LoweredProgram copy = lowered;
  copy.spirv = std::move(*optimized);
  return {Status::Ok, "", std::make_shared<VulkanProgram>(std::move(copy))};
}

/// A dispatch whose checks passed: the device it runs on (held through the
/// run, whatever a recovery does meanwhile), the program's pipeline, and the
/// request run_dispatch and run_level_loop take.
struct ReadyDispatch {
  DeviceHandles device;
  std::shared_ptr<const Pipeline> pipeline;
  double setup_ms = 0;
  std::optional<DispatchRequest> request;
};

/// What dispatch() and dispatch_levels() do before a run: the checks of the
/// inputs against the program and the device, and the program's pipeline.
/// An outcome instead says why the run cannot be made.
std::variant<DispatchOutcome, ReadyDispatch> VulkanBackend::State::ready(
    const CompiledProgram& compiled, const BufferSet& inputs, const Grid& grid) {
  const auto* program = dynamic_cast<const VulkanProgram*>(&compiled);
  if (program == nullptr) {
    return DispatchOutcome{
        Status::Error, "the program was compiled by another backend than `vulkan`", {}, {}};
  }
  const ShaderInterface& iface = program->lowered().iface;
  if (Result<Ok> valid = clike::check_host_inputs(iface, inputs, grid); !valid.ok()) {
    return DispatchOutcome{Status::Error, valid.error().message, {}, {}};
  }
  Result<DeviceHandles> device = get_device();
  if (!device.ok()) return DispatchOutcome{Status::Error, device.error().message, {}, {}};
  const VulkanInstance& instance = device->device->instance();
  if (auto limit = exceeded_limit(iface, inputs, grid, instance.limits())) {
    return DispatchOutcome{Status::NotSupported, *limit, {}, {}};
  }

  const auto setup_start = std::chrono::steady_clock::now();
  bool built = false;
  Result<std::shared_ptr<const Pipeline>> pipeline =
      device->pipelines->get(program->id(), program->lowered().spirv, iface, built);
  if (!pipeline.ok())
    return DispatchOutcome{Status::CompileError, pipeline.error().message, {}, {}};
  pipelines_built += built ? 1 : 0;
  ReadyDispatch ready{*device, *pipeline,
                      built ? std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - setup_start)
                                  .count()
                            : 0.0,
                      std::nullopt};

  // On a discrete GPU a small dispatch (a host-driven engine level) uses its
  // buffers in host memory, in place: no copies to record and order around
  // it, so the queue, which every thread's submissions share, spends less
  // on each.
  const bool forced = options.force_staging || mutant_forces_staging();
  const bool small = bound_bytes(iface, inputs) <= kInHostMemoryBytes;
  ready.request.emplace(DispatchRequest{
      *ready.pipeline, iface, inputs, grid, forced || (!instance.unified_memory() && !small),
      options.fence_timeout,
      instance.unified_memory() ? MemoryPlace::HostVisible : MemoryPlace::Staging,
      !instance.cpu_device() || bound_bytes(iface, inputs) > kUntimedCpuDispatchBytes});
  return ready;
}

DispatchOutcome VulkanBackend::dispatch(const CompiledProgram& compiled, const BufferSet& inputs,
                                        const Grid& grid) {
  std::variant<DispatchOutcome, ReadyDispatch> ready = state_->ready(compiled, inputs, grid);
  if (auto* refused = std::get_if<DispatchOutcome>(&ready)) return std::move(*refused);
  const ReadyDispatch& run = std::get<ReadyDispatch>(ready);
  DispatchOutcome outcome = run_dispatch(*run.device.device, *run.device.buffers, *run.request);
  outcome.timing.setup_ms = run.setup_ms;
  state_->recover(outcome.status);
  return outcome;
}

LevelLoopOutcome VulkanBackend::dispatch_levels(const CompiledProgram& compiled,
                                                const BufferSet& initial, const Grid& grid,
                                                const LevelLoop& loop) {
  // A run the checks refuse, and a loop of another shape, are the default's:
  // it reports the refusal as its first level's.
  std::variant<DispatchOutcome, ReadyDispatch> ready = state_->ready(compiled, initial, grid);
  if (const auto* run = std::get_if<ReadyDispatch>(&ready)) {
    std::optional<LevelLoopOutcome> out =
        run_level_loop(*run->device.device, *run->device.buffers, *run->request, loop);
    if (out) {
      state_->recover(out->status);
      return std::move(*out);
    }
  }
  return Backend::dispatch_levels(compiled, initial, grid, loop);
}

BatchOutcome VulkanBackend::dispatch_runs(const CompiledProgram& compiled, const BufferSet& inputs,
                                          const Grid& grid, const BatchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BatchOutcome outcome;
  const auto refuse = [&](Status status, std::string message) {
    outcome.status = status;
    outcome.message = std::move(message);
    finish_batch_timing(outcome, ms_since(start));
    return outcome;
  };
  const auto* program = dynamic_cast<const VulkanProgram*>(&compiled);
  if (program == nullptr) {
    return refuse(Status::Error, "the program was compiled by another backend than `vulkan`");
  }
  const ShaderInterface& iface = program->lowered().iface;
  if (Result<Ok> valid = clike::check_host_inputs(iface, inputs, grid); !valid.ok()) {
    return refuse(Status::Error, valid.error().message);
  }
  Result<DeviceHandles> device = state_->get_device();
  if (!device.ok()) return refuse(Status::Error, device.error().message);
  const VulkanInstance& instance = device->device->instance();
  if (auto limit = exceeded_limit(iface, inputs, grid, instance.limits())) {
    return refuse(Status::NotSupported, *limit);
  }
  Result<SpirvWords> compare_spirv = compare_shader_spirv();
  if (!compare_spirv.ok()) return refuse(Status::Error, compare_spirv.error().message);

  bool built = false;
  Result<std::shared_ptr<const Pipeline>> compare =
      device->pipelines->get(kComparePipelineId, *compare_spirv, compare_shader_interface(), built);
  if (!compare.ok()) return refuse(Status::Error, compare.error().message);
  const auto setup_start = std::chrono::steady_clock::now();
  Result<std::shared_ptr<const Pipeline>> pipeline =
      device->pipelines->get(program->id(), program->lowered().spirv, iface, built);
  if (!pipeline.ok()) return refuse(Status::CompileError, pipeline.error().message);
  const double setup_ms = built ? ms_since(setup_start) : 0.0;
  state_->pipelines_built += built ? 1 : 0;

  const bool staged =
      state_->options.force_staging || !instance.unified_memory() || mutant_forces_staging();
  const BatchRequest request{
      **pipeline,
      **compare,
      iface,
      inputs,
      grid,
      options,
      staged,
      state_->options.fence_timeout,
      instance.unified_memory() ? kHostBatchSlotBytes : kDeviceBatchSlotBytes,
      state_->perturbed_run};
  outcome = run_batch(*device->device, *device->buffers, request);
  outcome.timing.setup_ms = setup_ms;
  finish_batch_timing(outcome, ms_since(start));
  state_->recover(outcome.status);
  return outcome;
}

void VulkanBackend::prepare(const CompiledProgram& compiled) {
  const auto* program = dynamic_cast<const VulkanProgram*>(&compiled);
  if (program == nullptr) return;
  std::optional<DeviceHandles> device = state_->open_device();
  if (!device) return;
  bool built = false;
  // A failed build is not kept: the dispatch builds again and reports it.
  (void)device->pipelines->get(program->id(), program->lowered().spirv, program->lowered().iface,
                               built);
  state_->pipelines_built += built ? 1 : 0;
}

uint32_t VulkanBackend::concurrent_dispatches() const {
  return std::clamp(std::thread::hardware_concurrency(), 1u, kMaxConcurrentDispatches);
}

void VulkanBackend::perturb_run_for_testing(std::optional<uint32_t> run) {
  state_->perturbed_run = run;
}

uint64_t VulkanBackend::pipelines_built() const {
  return state_->pipelines_built;
}
uint64_t VulkanBackend::devices_created() const {
  return state_->devices_created;
}

std::unique_ptr<Backend> make_vulkan_backend(const BackendOptions& options) {
  return std::make_unique<VulkanBackend>(options);
}

}  // namespace vyre::vulkan
