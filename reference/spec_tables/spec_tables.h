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
//  - execution_model_cases(): ids, barriers, workgroup memory, evaluation
//    order, loops, Return, strong CompareExchange, wide values, uniform and
//    empty buffers, and the structural archetypes (wide fan-out, workgroup
//    memory contention and uniqueness, atomic contention, off-by-one buffer
//    lengths). Fixed workgroup sizes and grids: not resizable.
//  - nonconforming_cases(): programs whose verdict is not bytes but a flag
//    (a data race, a divergent barrier, strict out-of-bounds); a conforming
//    backend's bytes for them mean nothing, so they are listed apart.
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
  DataRace,           ///< The run must report a data race (RunOptions::checks).
  DivergentBarrier,   ///< Validation rejects it with V010; run unvalidated, the
                      ///< dynamic check reports a divergent barrier.
  StrictOutOfBounds,  ///< With RunOptions::strict_oob, out-of-bounds violations.
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
