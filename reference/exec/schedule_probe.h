// Schedule dependence (SEMANTICS S6): a program without races and divergent
// barriers may still give bytes that depend on the order in which the
// invocations' atomics take effect (an atomic's returned value kept in an
// output, a branch or an address; the final value of an exchange or a
// compare-exchange). No backend can be judged against one schedule's bytes of
// such a program, so the reference runs it again under other schedules and
// reports any difference as a violation. Only the order of atomics can make a
// race-free program's bytes differ, so a program without atomics is not
// probed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reference/exec/executor.h"
#include "reference/interpreter.h"

namespace vyre::reference {

/// A first run of at least this many budget steps (tens of milliseconds of
/// interpretation) has its probes run side by side, on up to
/// RunOptions::probe_threads threads, when its inputs are at most
/// kSideBySideProbeBytes (each probe holds its own buffers); the verdict is
/// the one probes run one by one give.
inline constexpr uint64_t kSideBySideProbeSteps = uint64_t{1} << 24;
inline constexpr uint64_t kSideBySideProbeBytes = uint64_t{64} << 20;

/// The schedules a run under `own` is compared with: canonical, reversed and
/// seeded random ones in lockstep, without `own`, `count` of them; then, when
/// `out_of_step` and `count` > 0, one with solo stepping (the invocations of a
/// workgroup one at a time between barriers).
std::vector<Schedule> probe_schedules(const Schedule& own, uint32_t count, bool out_of_step);

/// Runs `compiled` under options.schedule_probes other schedules, plus the
/// solo one when a workgroup has several invocations (without the checks),
/// and compares their outputs with `first`, the outputs of the run under
/// options.schedule (by options.same_result where given), which spent
/// `first_steps` budget steps; the solo probe may spend (1 + kStepsPerNode)
/// times that where it exceeds options.step_budget (its per-lane overhead).
/// The violation names both schedules and the first differing words, or the
/// probe's error when a run under another schedule fails (a loop bound read
/// from an atomic may not end); nullopt when every probe agrees or the
/// program has no atomic.
std::optional<Violation> probe_schedule_dependence(const ExecutionPlan& plan,
                                                   const LaneProgram& compiled,
                                                   const BufferSet& inputs,
                                                   const RunOptions& options,
                                                   const BufferSet& first, uint64_t first_steps);

}  // namespace vyre::reference
