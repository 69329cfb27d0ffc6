// The parts spec_tables.cc assembles; one source file each.
#pragma once

#include <vector>

#include "reference/spec_tables/spec_tables.h"

namespace vyre::reference {

/// BinOp, UnOp and AtomicOp tables (operator_cases.cc).
std::vector<TestCase> operator_cases();
/// Cast cells (cast_cases.cc).
std::vector<TestCase> cast_cases();
std::vector<TestCase> literal_cases();
/// Ids, barriers, workgroup memory, order of evaluation (execution_cases.cc).
std::vector<TestCase> execution_cases();
std::vector<TestCase> order_cases();
/// Control flow, wide values, special buffers (control_and_value_cases.cc).
std::vector<TestCase> control_and_value_cases();
/// Structural archetypes (structural_cases.cc).
std::vector<TestCase> structural_cases();
/// The off-by-one length archetype (S11) on storage, atomics, uniform and
/// workgroup buffers; structural_cases() holds them, and each also runs in
/// strict mode as non-conforming.
std::vector<TestCase> off_by_one_cases();
/// Atomics whose order reaches the outputs (flagged) and atomics whose order
/// does not (compared), in schedule_cases.cc.
std::vector<NonconformingCase> schedule_dependent_cases();
std::vector<TestCase> schedule_independent_cases();

}  // namespace vyre::reference
