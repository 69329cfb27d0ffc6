// Compiles a validated Program once per run into the lockstep core's tree of
// lane nodes: variables resolve to registers, buffers to indices, BufLen and
// literals to constant registers, Calls are inlined with their parameters
// bound to argument registers, and every temporary gets a register of the
// statement's stack (reused by the next statement). The compiler re-checks
// what it relies on and fails with an Error instead of trusting the
// validator blindly, so a validator gap can never crash the interpreter.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "reference/exec/lane_stmt.h"
#include "spec/ir/op_registry.h"
#include "spec/ir/program.h"
#include "spec/support/result.h"

namespace vyre::reference {

/// Fixed permanent registers: the ids per axis, the batch mask, the alive mask.
inline constexpr uint32_t kInvocationIdReg = 0;
inline constexpr uint32_t kWorkgroupIdReg = 3;
inline constexpr uint32_t kLocalIdReg = 6;
inline constexpr uint32_t kBatchMaskReg = 9;
inline constexpr uint32_t kAliveReg = 10;
inline constexpr uint32_t kFirstFreeReg = 11;

/// A constant register, filled once per run.
struct ConstantRegister {
  uint32_t reg = 0;
  uint32_t words = 1;
  std::array<uint32_t, 4> value = {};
};

/// A program ready for the lockstep core.
struct LaneProgram {
  LaneBody body;
  /// Registers of the file: permanent ones first, then temporaries.
  uint32_t permanent_registers = kFirstFreeReg;
  uint32_t temp_registers = 0;
  std::vector<ConstantRegister> constants;
  /// Whether a Barrier occurs (then a batch must be exactly one workgroup).
  bool has_barrier = false;
  /// Which id registers (kInvocationIdReg + axis, ...) the program reads, so
  /// the executor fills only those for each batch.
  std::array<bool, 9> uses_id = {};
  /// Every distinct (buffer, kind, location) of the Load, Store and Atomic
  /// nodes; AccessEvent::site indexes it.
  std::vector<AccessSite> access_sites;
};

/// Deepest expression nesting the compiler accepts (recursion stays bounded).
inline constexpr uint32_t kMaxExpressionDepth = 2048;

/// Deepest If/Loop/Block nesting the compiler accepts, for unvalidated
/// programs (the validator's V018 allows far less).
inline constexpr uint32_t kMaxStatementDepth = 1024;

/// Compiles `program`; `element_counts[i]` is buffer i's element count.
Result<LaneProgram> compile_program(const Program& program, const OpRegistry& ops,
                                    std::span<const uint64_t> element_counts);

}  // namespace vyre::reference
