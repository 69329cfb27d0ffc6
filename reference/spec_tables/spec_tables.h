// Spec tables as data: runnable TestCases whose `expected` bytes are written
// by hand from the pinned spec (sections 3-5) and SEMANTICS.md, never taken
// from the interpreter. The reference interpreter's tests run them all, the
// Vulkan backend's parity tests and the certification run reuse them.
//
// Three lists:
//  - spec_table_cases(): one case per BinOp, UnOp, AtomicOp and valid cast
//    cell, on the A1-A7 archetype inputs (pinned spec section 8). Each is a
//    1-D program guarded by `invocation_id(0) < buflen(out)` with workgroup
//    size 64, so it may be re-run at any workgroup size with
//    grid = ceil(n / size) (SuiteCase::resizable).
//    Out-of-bounds atomics (index len, len + 1, MAX) have a case per
//    AtomicOp too.
//  - execution_model_cases(): ids, barriers, workgroup memory, evaluation
//    order, loops, Return, strong CompareExchange, wide values, uniform and
//    empty buffers, and the structural archetypes. Fixed workgroup sizes and
//    grids: not resizable.
//  - nonconforming_cases(): programs whose verdict is not bytes but a flag
//    (a data race, a divergent barrier, strict out-of-bounds); a conforming
//    backend's bytes for them mean nothing, so they are listed apart.
//
// Structural archetypes: pinned spec section 8 lists fourteen items under
// S1-S15; "max nesting and +1" is the one that counts as two (the limit and
// one past it, like len - 1 / len / len + 1), which makes the five that the
// reference owns (issue 3: S8-S11, S13) exactly the five execution-model
// items of the list:
//   S1 minimum program      S6 diamond                S11 off-by-one buffer
//   S2 max nesting          S7 chain of 1000              len-1/len/len+1
//   S3 max nesting + 1      S8 wide fan-out           S12 shadowing
//   S4 node-count boundary  S9 workgroup-memory       S13 barrier under
//   S5 dead code               contention and             divergence
//                              uniqueness             S14 type confusion
//                           S10 atomic contention     S15 empty buffer
// A case of archetype Sn carries `/Sn/` in its name (`exec/S11/...`,
// `strict_oob/S11/...`), so that reports can be traced back to the list.
// S13 is non-conforming by nature: its divergent forms are flagged (static
// and dynamic V010), and its conforming form (divergence that never splits a
// workgroup at a barrier) is an execution-model case.
// Every conforming case writes every element of its ReadWrite buffers, or
// updates it atomically, so its result does not depend on output-buffer
// initial contents beyond what it reads.
#pragma once

#include <string>
#include <vector>

#include "spec/ir/test_case.h"

namespace vyre::reference {

/// Operator and cast tables: every case's `expected` is set.
std::vector<TestCase> spec_table_cases();

/// Execution-model and structural cases: every case's `expected` is set.
std::vector<TestCase> execution_model_cases();

/// Why a non-conforming case must be flagged.
enum class Nonconformance : uint8_t {
  DataRace,            ///< The run must report a data race (RunOptions::checks).
  DivergentBarrier,    ///< Validation rejects it with V010; run unvalidated, the
                       ///< dynamic check reports a divergent barrier.
  StrictOutOfBounds,   ///< With RunOptions::strict_oob, out-of-bounds violations.
  ScheduleDependence,  ///< The run reports that its outputs depend on the schedule.
};

/// A case whose verdict is a violation rather than bytes (`expected` unset).
struct NonconformingCase {
  TestCase test_case;
  Nonconformance flag = Nonconformance::DataRace;
  /// Why the case is non-conforming, for reports.
  std::string reason;
};

/// Programs that must be flagged, not compared.
std::vector<NonconformingCase> nonconforming_cases();

}  // namespace vyre::reference
