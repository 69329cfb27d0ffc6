// The `vulkan` backend: programs lowered to SPIR-V (lowering.h) and run on any
// Vulkan 1.1 device with a compute queue. The device is opened lazily, so
// creating the backend and compile() work without one. Design: DESIGN.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "backends/backend.h"
#include "backends/backend_options.h"
#include "backends/vulkan/lowering.h"

namespace vyre::vulkan {

/// The compiled form of a program on this backend.
class VulkanProgram final : public CompiledProgram {
 public:
  explicit VulkanProgram(LoweredProgram lowered);
  const LoweredProgram& lowered() const { return lowered_; }
  /// Unique for the life of the process: the key of the pipeline cache.
  uint64_t id() const { return id_; }

 private:
  LoweredProgram lowered_;
  uint64_t id_;
};

/// A Backend over one Vulkan device.
///
/// compile() first checks the program against the device's limits (opening
/// the instance, never a logical device) and lowers it within
/// BackendOptions::fence_timeout, else Status::Timeout (bounded_lowering.h).
/// Dispatches run one at a time and wait for completion. A submission that
/// does not finish within BackendOptions::fence_timeout is reported as
/// Status::Timeout and a lost device as Status::DeviceLost; either way the
/// device is replaced and the next dispatch runs on a fresh one.
///
/// Destroy it before exit() begins: a backend in a static destroyed at exit
/// runs after the driver's own atexit teardown (NVIDIA's) and crashes.
class VulkanBackend final : public Backend {
 public:
  explicit VulkanBackend(BackendOptions options);
  ~VulkanBackend() override;

  std::string name() const override { return "vulkan"; }
  Capabilities probe() override;
  CompileOutcome compile(const Program& program) override;
  /// spirv-opt -O and -Os: the lowered module after SPIRV-Tools' optimizer.
  std::vector<Encoding> encodings() const override;
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;
  /// Records many runs per command buffer (batch_run.h, DESIGN.md "Batched runs").
  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override;
  /// Records several levels per submission with the state kept on the device
  /// (dispatch_run.h, DESIGN.md "Level loops"); a loop of another shape runs
  /// as the default's, a dispatch a level.
  LevelLoopOutcome dispatch_levels(const CompiledProgram& program, const BufferSet& state,
                                   const Grid& grid, const LevelLoop& loop) override;

  /// compile() lowers on the calling thread, and prepare() builds the
  /// pipeline on the device the dispatches use, under the backend's lock for
  /// what they share (DESIGN.md "Compiles ahead").
  bool compiles_concurrently() const override { return true; }
  /// Builds the pipeline of `program` into the pipeline cache, on the device
  /// already open (never opening one), so that its first dispatch finds it.
  void prepare(const CompiledProgram& program) override;
  /// Each recording leases its own command buffer and fence for one
  /// submission; only vkQueueSubmit is serialised (DESIGN.md "Concurrent
  /// dispatches"). One per host core, at most kMaxConcurrentDispatches.
  uint32_t concurrent_dispatches() const override;
  /// Test only: in later batches, run `run`'s first output is overwritten on
  /// the device after it ran, to check that a differing run is reported.
  void perturb_run_for_testing(std::optional<uint32_t> run);
  /// The disk cache of the driver's pipeline cache; nullopt without
  /// BackendOptions::cache_dir.
  std::optional<DriverCacheUse> driver_cache() const override;
  /// Saves the pipeline cache; the device is left to the OS.
  bool saved_for_process_exit() override;

  /// Pipelines created so far; a cached program's later dispatches add none.
  uint64_t pipelines_built() const;
  /// Logical devices created so far (1 + recoveries, once one was needed).
  uint64_t devices_created() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The registry's factory for "vulkan".
std::unique_ptr<Backend> make_vulkan_backend(const BackendOptions& options);

}  // namespace vyre::vulkan
