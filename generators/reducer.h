// Automatic reduction of an interesting test case (delta debugging over the
// IR): greedy, to a fixed point, each step kept only when the case stays
// valid and `interesting` still holds. The certifier's predicate is
// "conforming on the reference and still failing on the backend"; any
// predicate works, and invalid candidates never reach it. Valid candidates
// can still run long (a bounded loop bound such as `mod(x, 7)` reduced to
// `x` may iterate 2^32 times), so a predicate should run the reference with
// a small step budget (the tests use 2^22) and call a failed run
// uninteresting.
#pragma once

#include <cstdint>
#include <functional>

#include "spec/ir/test_case.h"

namespace vyre {

/// Bounds on one reduction.
struct ReduceOptions {
  /// Most predicate calls.
  uint32_t max_predicate_calls = 5000;
  /// Wall-clock budget in seconds.
  double max_seconds = 60.0;
};

/// What a reduction did.
struct ReduceStats {
  uint32_t predicate_calls = 0;
  uint32_t accepted_steps = 0;
  /// True when a cap stopped it before a fixed point.
  bool capped = false;
};

/// The smallest case found from `start` for which `interesting` holds.
/// Steps: drop statements; unwrap If (to either arm), Loop (to its body once)
/// and Block; turn an Assign into a Let of a new name (so the Let it
/// assigned can go); replace an expression by an operand or a small literal;
/// simplify literals; drop unused buffers; shrink and zero inputs; shrink the
/// grid and the workgroup. `start` itself must be interesting (it is
/// returned unchanged otherwise). `stats`, when given, is filled in.
TestCase reduce(const TestCase& start, const std::function<bool(const TestCase&)>& interesting,
                const ReduceOptions& options = {}, ReduceStats* stats = nullptr);

}  // namespace vyre
