// The vulkan backend: lazy device, compile, dispatch and recovery.
#include "backends/vulkan/vulkan_backend.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <vector>

#include "backends/elapsed_ms.h"
#include "backends/vulkan/batch_run.h"
#include "backends/vulkan/bounded_lowering.h"
#include "backends/vulkan/compare_shader.h"
#include "backends/vulkan/device_buffers.h"
#include "backends/vulkan/dispatch_checks.h"
#include "backends/vulkan/dispatch_run.h"
#include "backends/vulkan/mutants/mutant.h"
#include "backends/vulkan/pipeline_cache.h"
#include "backends/vulkan/vulkan_device.h"
#include "spec/validate/validator.h"

namespace vyre::vulkan {
namespace {

/// Pipelines kept per device; a certification run compiles far more programs.
constexpr size_t kPipelineCacheCapacity = 128;
/// Bytes of free buffers kept per device for later dispatches.
constexpr VkDeviceSize kBufferPoolBytes = VkDeviceSize{256} << 20;

std::atomic<uint64_t> next_program_id{1};

}  // namespace

VulkanProgram::VulkanProgram(LoweredProgram lowered)
    : lowered_(std::move(lowered)), id_(next_program_id.fetch_add(1)) {}

struct VulkanBackend::State {
  BackendOptions options;
  std::unique_ptr<VulkanInstance> instance;
  std::optional<Error> instance_error;  // Sticky: a missing loader or device stays missing.
  std::unique_ptr<VulkanDevice> device;
  std::unique_ptr<PipelineCache> pipelines;
  std::unique_ptr<BufferPool> buffers;
  // Devices abandoned with hung work: never destroyed (see VulkanDevice::abandon).
  std::vector<std::unique_ptr<VulkanDevice>> abandoned;
  uint64_t pipelines_built = 0;
  uint64_t devices_created = 0;
  std::optional<uint32_t> perturbed_run;

  ~State() {
    pipelines.reset();
    buffers.reset();
    device.reset();
    if (!abandoned.empty() && instance) instance->leak_on_destruction();
  }

  /// The instance, created on first use.
  Result<VulkanInstance*> get_instance() {
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

  /// The current device, created on first use and after each recovery.
  Result<VulkanDevice*> get_device() {
    Result<VulkanInstance*> inst = get_instance();
    if (!inst.ok()) return inst.error();
    if (!device) {
      Result<std::unique_ptr<VulkanDevice>> created = VulkanDevice::create(**inst);
      if (!created.ok()) return created.error();
      device = std::move(*created);
      pipelines = std::make_unique<PipelineCache>(*device, kPipelineCacheCapacity);
      buffers = std::make_unique<BufferPool>(*device, kBufferPoolBytes);
      ++devices_created;
    }
    return device.get();
  }

  /// After a hang (the device was abandoned) or a device loss, drop the
  /// device so that the next dispatch gets a fresh one.
  void recover(Status status) {
    const bool hung = device && device->abandoned();
    if (!device || (!hung && status != Status::DeviceLost)) return;
    pipelines.reset();  // These two destroy nothing on an abandoned device.
    buffers.reset();
    if (hung) {
      abandoned.push_back(std::move(device));
      instance->leak_on_destruction();
    }
    device.reset();
  }
};

VulkanBackend::VulkanBackend(BackendOptions options) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
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
  std::optional<Result<LoweredProgram>> lowered = lower_within(program, budget, limit);
  if (!lowered) {
    return {Status::Timeout,
            "lowering the program to SPIR-V took longer than " + std::to_string(limit.count()) +
                " ms (--timeout-ms) and was abandoned; the program is too large for this backend",
            nullptr};
  }
  if (!lowered->ok()) {
    return {lowering_failure_status(program), lowered->error().message, nullptr};
  }
  return {Status::Ok, "", std::make_shared<VulkanProgram>(std::move(**lowered))};
}

DispatchOutcome VulkanBackend::dispatch(const CompiledProgram& compiled, const BufferSet& inputs,
                                        const Grid& grid) {
  const auto* program = dynamic_cast<const VulkanProgram*>(&compiled);
  if (program == nullptr) {
    return {Status::Error, "the program was compiled by another backend than `vulkan`", {}, {}};
  }
  const ShaderInterface& iface = program->lowered().iface;
  if (Result<Ok> valid = check_inputs(iface, inputs, grid); !valid.ok()) {
    return {Status::Error, valid.error().message, {}, {}};
  }
  Result<VulkanDevice*> device = state_->get_device();
  if (!device.ok()) return {Status::Error, device.error().message, {}, {}};
  const VulkanInstance& instance = (*device)->instance();
  if (auto limit = exceeded_limit(iface, inputs, grid, instance.limits())) {
    return {Status::NotSupported, *limit, {}, {}};
  }

  const auto setup_start = std::chrono::steady_clock::now();
  bool built = false;
  Result<const Pipeline*> pipeline =
      state_->pipelines->get(program->id(), program->lowered().spirv, iface, built);
  if (!pipeline.ok()) return {Status::CompileError, pipeline.error().message, {}, {}};
  const double setup_ms = built ? std::chrono::duration<double, std::milli>(
                                      std::chrono::steady_clock::now() - setup_start)
                                      .count()
                                : 0.0;
  state_->pipelines_built += built ? 1 : 0;

  const DispatchRequest request{
      **pipeline,
      iface,
      inputs,
      grid,
      state_->options.force_staging || !instance.unified_memory() || mutant_forces_staging(),
      state_->options.fence_timeout};
  DispatchOutcome outcome = run_dispatch(**device, *state_->buffers, request);
  outcome.timing.setup_ms = setup_ms;
  state_->recover(outcome.status);
  return outcome;
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
  if (Result<Ok> valid = check_inputs(iface, inputs, grid); !valid.ok()) {
    return refuse(Status::Error, valid.error().message);
  }
  Result<VulkanDevice*> device = state_->get_device();
  if (!device.ok()) return refuse(Status::Error, device.error().message);
  const VulkanInstance& instance = (*device)->instance();
  if (auto limit = exceeded_limit(iface, inputs, grid, instance.limits())) {
    return refuse(Status::NotSupported, *limit);
  }
  Result<SpirvWords> compare_spirv = compare_shader_spirv();
  if (!compare_spirv.ok()) return refuse(Status::Error, compare_spirv.error().message);

  // The compare pipeline first: getting the program's next cannot evict it,
  // being the most recently used.
  bool built = false;
  Result<const Pipeline*> compare =
      state_->pipelines->get(kComparePipelineId, *compare_spirv, compare_shader_interface(), built);
  if (!compare.ok()) return refuse(Status::Error, compare.error().message);
  const auto setup_start = std::chrono::steady_clock::now();
  Result<const Pipeline*> pipeline =
      state_->pipelines->get(program->id(), program->lowered().spirv, iface, built);
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
  outcome = run_batch(**device, *state_->buffers, request);
  outcome.timing.setup_ms = setup_ms;
  finish_batch_timing(outcome, ms_since(start));
  state_->recover(outcome.status);
  return outcome;
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
