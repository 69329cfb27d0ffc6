// The `cuda` backend: programs lowered to CUDA C, compiled by NVRTC at their
// first dispatch (or ahead, prepare()) and run through the CUDA driver API.
// The driver (libcuda.so.1) and NVRTC are opened lazily, so creating the
// backend and compile() work without them. Design: DESIGN.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "backends/backend.h"
#include "backends/backend_options.h"
#include "backends/cuda/kernel_interface.h"
#include "backends/cuda/nvrtc_compile.h"

namespace vyre::cuda {

/// What a lowering gives compile(): the kernel, or the status and message of
/// why there is none (CompileError for an invalid program, NotSupported for
/// a valid one CUDA C cannot express).
struct LoweringOutcome {
  Status status = Status::Error;
  std::string message;
  LoweredKernel kernel;
};

/// A pure translation Program -> CUDA C (no device, no NVRTC), given the
/// loop iteration budget the kernel enforces.
using KernelLowering =
    std::function<LoweringOutcome(const Program& program, uint32_t loop_iteration_budget)>;

/// A Backend over one CUDA device.
///
/// Dispatches run one at a time and wait for completion. A dispatch that does
/// not finish within BackendOptions::fence_timeout is Status::Timeout and its
/// context is abandoned; a kernel that faults is Status::DeviceLost and its
/// context destroyed; either way the next dispatch runs on a new context. A
/// kernel NVRTC or the driver rejects is Status::CompileError at dispatch,
/// with the log and the source.
class CudaBackend final : public Backend {
 public:
  /// A backend whose compile() lowers with `lowering`; an empty one leaves
  /// the backend without a lowering (probe() then says so).
  CudaBackend(BackendOptions options, KernelLowering lowering);
  ~CudaBackend() override;

  std::string name() const override { return "cuda"; }
  Capabilities probe() override;
  CompileOutcome compile(const Program& program) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;
  /// All runs of a submission launched back to back on the stream and waited
  /// for once; outputs compared with run 0's on the host (batch_run.h).
  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override;

  /// compile() lowers on the calling thread; prepare() runs NVRTC and loads
  /// the module, under the backend's lock only for what they share.
  bool compiles_concurrently() const override { return true; }
  /// Compiles the program with NVRTC and loads it into the context already
  /// open (never opening one), so that its first dispatch finds it.
  void prepare(const CompiledProgram& program) override;
  /// NVRTC compilations so far; a program's later dispatches add none.
  uint64_t kernels_compiled() const;
  /// Contexts created so far (1 + recoveries, once one was needed).
  uint64_t contexts_created() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The registry's factory for "cuda".
std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& options);

}  // namespace vyre::cuda
