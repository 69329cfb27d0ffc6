// The `opencl` backend: programs lowered to OpenCL C (lowering.h), built by
// the driver at their first dispatch (or ahead, prepare()) and run on any OpenCL 1.2 device (PoCL
// on a CPU, NVIDIA's OpenCL on a GPU). The ICD loader is opened lazily, so
// creating the backend and compile() work without one. Design: DESIGN.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "backends/backend.h"
#include "backends/backend_options.h"
#include "backends/opencl/lowering.h"

namespace vyre::opencl {

/// The compiled form of a program on this backend: its OpenCL C source.
class OpenClProgram final : public CompiledProgram {
 public:
  explicit OpenClProgram(LoweredKernel lowered) : lowered_(std::move(lowered)) {}
  /// The kernel, whose source is its key in the kernel cache.
  const LoweredKernel& lowered() const { return lowered_; }

 private:
  LoweredKernel lowered_;
};

/// A Backend over one OpenCL device.
///
/// Dispatches may come from several threads at once, each on a lane of its
/// own (dispatch_lanes.h), and each waits for its completion. A dispatch
/// that does not finish within BackendOptions::fence_timeout is
/// Status::Timeout and a kernel that ends in an execution error
/// Status::DeviceLost; either way the context is replaced and the next
/// dispatch runs on a fresh one (a hung lane's queue is abandoned).
/// A kernel the driver does not build is Status::CompileError at dispatch,
/// with the build log.
class OpenClBackend final : public Backend {
 public:
  explicit OpenClBackend(BackendOptions options);
  ~OpenClBackend() override;

  std::string name() const override { return "opencl"; }
  Capabilities probe() override;
  CompileOutcome compile(const Program& program) override;
  /// cl-opt-disable: the same kernel built with `-cl-opt-disable`.
  std::vector<Encoding> encodings() const override;
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;
  /// The runs enqueued together and waited for once per submission, each
  /// compared with run 0 on the device (batch_run.h).
  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override;
  /// The state stays on the device: levels are enqueued in groups of up to
  /// kMaxLevelsPerWait and waited for once a group (level_loop_run.h); a
  /// loop it cannot run that way (level_loop_fits) runs as the default's.
  LevelLoopOutcome dispatch_levels(const CompiledProgram& program, const BufferSet& state,
                                   const Grid& grid, const LevelLoop& loop) override;
  /// Test only: dispatch_runs overwrites word 0 of the first output of this
  /// run (nullopt: none), as a nondeterministic program might. Set it while
  /// no dispatch runs.
  void perturb_run_for_testing(std::optional<uint32_t> run);
  /// BackendOptions::dispatch_lanes when set; else default_dispatch_lanes
  /// (dispatch_lanes.h) of the device, 1 without a usable one. Opens the
  /// device if no call did yet (an isolated child answers after probe(),
  /// in its hello, so the parent sees the device's answer).
  uint32_t concurrent_dispatches() const override;
  uint32_t useful_processes() const override;

  /// compile() lowers on the calling thread, and prepare() builds the
  /// kernel in the context the dispatches use, under the backend's lock for
  /// what they share.
  bool compiles_concurrently() const override { return true; }
  /// Queues the kernel of `program` for the builder threads of the current
  /// context (opening one if none is open, so that a fresh isolated process
  /// builds inside this bounded call), which build queued kernels in groups,
  /// one clBuildProgram each (kernel_cache.h); its first dispatch waits for
  /// that build, or builds the kernel itself if no builder took it yet.
  void prepare(const CompiledProgram& program) override;
  /// Kernels built from source so far (all contexts); a cached program's
  /// later dispatches add none, nor do kernels loaded from the disk cache.
  uint64_t kernels_built() const;
  /// Kernels loaded from the disk cache (BackendOptions::cache_dir) so far.
  uint64_t kernels_loaded() const;
  /// clBuildProgram calls on source so far (a call builds one or more kernels).
  uint64_t programs_built() const;
  /// The disk cache's use; nullopt without BackendOptions::cache_dir.
  std::optional<DriverCacheUse> driver_cache() const override;
  /// True: built kernels are stored as they are built, nothing at closing.
  bool saved_for_process_exit() override { return true; }
  /// Contexts created so far (1 + recoveries, once one was needed).
  uint64_t contexts_created() const;

 private:
  struct State;
  struct Ready;
  /// Checks the inputs and limits and finds (or builds) the kernel; on an
  /// Error, `status` says which status the dispatch reports.
  Result<Ready> ready(const CompiledProgram& compiled, const BufferSet& inputs, const Grid& grid,
                      Status& status);
  std::unique_ptr<State> state_;
};

/// The registry's factory for "opencl".
std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& options);

}  // namespace vyre::opencl
