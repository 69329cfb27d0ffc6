// A Backend that wraps another and injects faults at seeded points of a run
// (fault_plan.h): a lost device, a hung submission, one run of a batch with
// wrong bytes, a truncated read-back, a failed allocation, a crash of the
// backend process. It lets tests, and backend authors with
// `vyre-certify --inject-faults SPEC`, check that a certification with faults
// still gives the right verdicts, a complete report and no case passing that
// should not. Everything else (name, probe, compile) is the wrapped backend's.
//
// Where the wrapped backend runs in a child process (a plugin,
// backends/isolation/isolate.h), the wrapper runs there too: a crash aborts
// the child and a hang blocks it until the parent's timeout kills it. In the
// certifier's own process a crash cannot be injected (inject_faults refuses
// it) and a hang waits out `hang_timeout`, then reports Status::Timeout, as a
// built-in backend does when a submission's fence never signals.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

#include "backends/backend.h"
#include "backends/fault_injection/fault_plan.h"
#include "spec/support/result.h"

namespace vyre {

/// The run's count of dispatch calls, shared by every wrapper of the run (a
/// retry's fresh backend continues it) and by the child processes forked after
/// it was made: it lives in a shared anonymous mapping, so a fault set to fire
/// once fires once even when the child it fired in is replaced.
class FaultCallCounter {
 public:
  /// A counter at 0; an Error when the shared mapping cannot be made.
  static Result<std::shared_ptr<FaultCallCounter>> make();
  ~FaultCallCounter();
  FaultCallCounter(const FaultCallCounter&) = delete;
  FaultCallCounter& operator=(const FaultCallCounter&) = delete;

  /// The next call's number, from 1.
  uint64_t next();

 private:
  explicit FaultCallCounter(std::atomic<uint64_t>* count) : count_(count) {}
  std::atomic<uint64_t>* count_;
};

/// How a wrapper injects its faults.
struct FaultInjection {
  FaultPlan plan;
  std::shared_ptr<FaultCallCounter> calls;
  /// The wrapper runs inside an isolated child process (see the top of this file).
  bool in_child_process = false;
  /// How long an injected hang lasts outside a child process before it is
  /// reported as Status::Timeout (the backend's own submission timeout).
  std::chrono::milliseconds hang_timeout{10'000};
};

/// `inner` with `injection`'s faults; an Error when the plan crashes a
/// backend that does not run in a child process, or has no counter.
Result<std::unique_ptr<Backend>> inject_faults(std::unique_ptr<Backend> inner,
                                               FaultInjection injection);

}  // namespace vyre
