// The runs of a host-driven case in lockstep: each run is its own execution
// of the engine on its own thread, and every step they all reach (a
// dispatch) is made as one batch of runs on the real backend
// (Backend::dispatch_runs), instead of one submission, wait and readback per
// run and step. Runs whose step has the same program, inputs and grid share
// a batch; a run whose state diverged (nondeterminism) gets a batch of its
// own, so each run still sees exactly what its own earlier steps produced.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "backends/backend.h"

namespace vyre::certify {

/// Most input bytes times runs one step's batch may hold: past it the
/// batch's per-run output slots and copies, and the threads' copies of the
/// state, cost more than the submissions they save.
inline constexpr uint64_t kStepBatchBytes = uint64_t{16} << 20;

/// A Backend for threads that each run one execution of a host-driven case
/// (prepared once on this backend): compile() and probe() go straight to
/// `real`; dispatch() waits until every run still going has asked for its
/// step, then the step is made for all of them in batches. Before a round of
/// runs, begin() says how many; each thread calls run_finished() when its run
/// ends.
class LockstepBackend final : public Backend {
 public:
  /// `submissions`: the batches' BatchOptions::submissions (some runs stay in
  /// separate submissions). `deadline`: past it, steps are answered Timeout
  /// without dispatching (the case's budget).
  LockstepBackend(Backend& real, uint32_t submissions,
                  std::chrono::steady_clock::time_point deadline);
  /// Starts a round of `runs` runs (none may be going).
  void begin(uint32_t runs);

  std::string name() const override { return real_.name(); }
  Capabilities probe() override { return real_.probe(); }
  CompileOutcome compile(const Program& program) override { return real_.compile(program); }
  /// One run's step; blocks until the step is made for every run.
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;
  /// The calling run has ended: steps no longer wait for it.
  void run_finished();
  /// Whether steps seen so far are small enough to batch several runs of
  /// (their inputs times two runs fit kStepBatchBytes); false before any.
  bool batches_steps() const;

 private:
  struct Step {
    const CompiledProgram* program;
    const BufferSet* inputs;
    Grid grid;
    std::optional<DispatchOutcome>* answer;
  };
  /// Makes the waiting steps, grouped by program, grid and inputs; `lock` is held.
  void make_steps();

  Backend& real_;
  const uint32_t submissions_;
  const std::chrono::steady_clock::time_point deadline_;
  mutable std::mutex mutex_;
  std::condition_variable answered_;
  uint32_t running_ = 0;
  uint64_t largest_step_bytes_ = 0;
  std::vector<Step> waiting_;
};

}  // namespace vyre::certify
