// The reference interpreter: its output defines vyre 0.4.0 semantics bit for
// bit (pinned spec sections 1-5). It validates the program, runs it on an
// explicit grid, and reports what makes a run non-conforming: data races,
// barriers reached by part of a workgroup, out-of-bounds accesses.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"
#include "spec/support/result.h"

namespace vyre::reference {

/// Order in which workgroups and invocations are interleaved. For a race-free
/// program every schedule gives identical bytes.
struct Schedule {
  enum class Kind : uint8_t { Canonical, Reversed, Random };
  /// Which workgroups share a lockstep batch. Default: one at a time when the
  /// program has a barrier or a workgroup buffer, else as many as fill a
  /// batch. Apart: one at a time (a workgroup ends before the next starts).
  /// Together: at least two at a time, barrier or not, so that the atomics of
  /// different workgroups interleave as on a GPU, where workgroups run
  /// concurrently (a program with a workgroup buffer still runs one at a time:
  /// the interpreter keeps one copy of workgroup memory).
  enum class Grouping : uint8_t { Default, Apart, Together };
  /// How the invocations of a batch advance between barriers. Lockstep: all
  /// lanes do one IR node before any does the next. Solo: every stretch of
  /// statements without a barrier is run by one invocation at a time, each
  /// to the stretch's end (its next barrier, its return or its end) before
  /// the next starts, in the kind's lane order, as on a GPU where invocations
  /// of one workgroup do not run in step (unchecked runs only, like Together;
  /// reference/README.md says what it covers).
  enum class Stepping : uint8_t { Lockstep, Solo };
  Kind kind = Kind::Canonical;
  uint64_t seed = 0;  ///< Used by Random.
  Grouping grouping = Grouping::Default;
  Stepping stepping = Stepping::Lockstep;
};

/// Knobs of one run.
struct RunOptions {
  Schedule schedule;
  /// Race and divergent-barrier observers, and the schedule probes; off for
  /// speed.
  bool checks = true;
  /// With checks, a program with atomics that ran conforming runs again under
  /// this many other lockstep schedules, plus one solo schedule when a
  /// workgroup has more than one invocation (none when 0), and any difference
  /// in its outputs is a schedule-dependence violation
  /// (reference/exec/schedule_probe.h).
  uint32_t schedule_probes = 4;
  /// Threads the probes of a long run (schedule_probe.h,
  /// kSideBySideProbeSteps) may use side by side; 1 runs every run's probes
  /// one by one. The verdict is the same either way.
  unsigned probe_threads = 1;
  /// Whether two runs' outputs are the same result, for the probes; empty:
  /// byte for byte. A program whose outputs are judged in a canonical form
  /// (graph.bfs findings, whose raw order is the schedule's) passes that
  /// form's equality.
  std::function<bool(const BufferSet&, const BufferSet&)> same_result;
  /// Any out-of-bounds access is a violation, not just counted.
  bool strict_oob = false;
  /// Steps before the run stops with an error (non-termination): every node
  /// executed costs the lanes of its batch (all computed, active or not)
  /// plus 16, every access checked by observers 10, and every batch its
  /// width plus the workgroup words it zeroes (reference/README.md).
  uint64_t step_budget = uint64_t{1} << 34;
  /// Largest total invocation count accepted.
  uint64_t max_invocations = uint64_t{1} << 26;
  /// Most memory a run may use: inputs, output copies, workgroup memory,
  /// registers and the checks' shadow records, fixed ones reserved before the
  /// run and growing ones as they grow (past it, the run ends with an Error).
  uint64_t max_memory_bytes = uint64_t{1} << 31;
};

/// Out-of-bounds accesses of one run, per kind.
struct OobCounts {
  uint64_t loads = 0;
  uint64_t stores = 0;
  uint64_t atomics = 0;
  uint64_t total() const { return loads + stores + atomics; }
};

/// Something that makes the program non-conforming on this input.
struct Violation {
  enum class Kind : uint8_t { DataRace, DivergentBarrier, OutOfBounds, ScheduleDependence };
  Kind kind;
  /// Full explanation: buffer, index, invocations and node involved (for
  /// schedule dependence: both schedules and the differing words).
  std::string message;
  std::string buffer;
  uint64_t index = 0;
  /// Global invocation ids (x, y, z) involved; two for a race.
  std::vector<std::array<uint32_t, 3>> invocations;
  /// The node involved; for a race, the later access's node.
  SourceLoc loc;
  /// For a race, the earlier access's node (of invocations[0]).
  SourceLoc earlier_loc;
};

/// Outputs and verdicts of one run.
struct RunResult {
  /// Bytes of every ReadWrite buffer after the dispatch.
  BufferSet outputs;
  OobCounts oob;
  std::vector<Violation> violations;
  /// Lane-operations executed: node executions x active lanes (literal,
  /// variable and id reads included; reference/README.md).
  uint64_t lane_ops = 0;
  /// Step-budget steps the run spent (RunOptions::step_budget).
  uint64_t steps = 0;
  bool conforming() const { return violations.empty(); }
  /// How many violations of `kind` the run reported.
  size_t count(Violation::Kind kind) const {
    size_t n = 0;
    for (const Violation& v : violations) n += v.kind == kind ? 1 : 0;
    return n;
  }
};

/// Validates and runs `program`. Errors: invalid program, missing or
/// wrongly sized inputs, a zero or oversized grid, memory past the limits,
/// or the step budget exhausted.
Result<RunResult> run(const Program& program, const BufferSet& inputs, const Grid& grid,
                      const RunOptions& options = {});

/// A check hooked onto the interpreter (reference/observers/observer.h).
class Observer;

/// Runs `program` without validating it, with `extra_observers` notified
/// after the standard ones (reference/observers/observer.h). For tools that
/// watch a run and for tests of the dynamic checks: the validator's static
/// V010 is conservative, so only a program it rejects can reach a barrier
/// with part of a workgroup. Anything the interpreter cannot execute (wrong
/// types, unknown names, runaway nesting) is still an Error, never a crash.
Result<RunResult> run_unvalidated(const Program& program, const BufferSet& inputs, const Grid& grid,
                                  const RunOptions& options = {},
                                  std::span<Observer* const> extra_observers = {});

/// How `vyre-certify run --schedule` spells a schedule: "canonical",
/// "reversed" or "random:SEED".
std::string describe(const Schedule& schedule);

/// Name of a violation kind ("data race", ...).
std::string_view name_of(Violation::Kind kind);

}  // namespace vyre::reference
