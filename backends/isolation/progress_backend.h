// A Backend that forwards every call to another and says when each call that
// may run long (compile, prepare, dispatch, each wait of a level loop)
// begins. The child process runs hosted work on its backend through one, so
// that the parent, which owns the time limits, hears of the work's progress
// (ProgressMessage) and bounds each backend call of a long work instead of
// the whole work.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "backends/backend.h"

namespace vyre::isolation {

/// Forwards to `inner`, calling `started(n)` as its n-th long call begins.
class ProgressBackend final : public Backend {
 public:
  /// `started` may be called from several threads at once.
  ProgressBackend(Backend& inner, std::function<void(uint64_t)> started)
      : inner_(inner), started_(std::move(started)) {}

  std::string name() const override { return inner_.name(); }
  Capabilities probe() override { return inner_.probe(); }
  CompileOutcome compile(const Program& program) override;
  std::vector<Encoding> encodings() const override { return inner_.encodings(); }
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;
  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override;
  /// Forwarded, saying so as it begins and as each of its waits begins
  /// (LevelLoop::on_submission), so that a long loop is bounded per wait.
  LevelLoopOutcome dispatch_levels(const CompiledProgram& program, const BufferSet& state,
                                   const Grid& grid, const LevelLoop& loop) override;
  bool compiles_concurrently() const override { return inner_.compiles_concurrently(); }
  void prepare(const CompiledProgram& program) override;
  uint32_t concurrent_dispatches() const override { return inner_.concurrent_dispatches(); }
  std::optional<DriverCacheUse> driver_cache() const override { return inner_.driver_cache(); }

 private:
  void begin() { started_(++calls_); }

  Backend& inner_;
  std::function<void(uint64_t)> started_;
  std::atomic<uint64_t> calls_{0};
};

}  // namespace vyre::isolation
