// Internal to the well-formed generator: the plan of a program being built
// (its buffers and what each may be used for, the grid, the live names) that
// the expression, statement and layout parts share. Not a public header.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "generators/prng.h"
#include "generators/wellformed_program.h"
#include "spec/ir/program.h"

namespace vyre::wellformed {

/// What a buffer is for; the role decides which accesses are race-free.
enum class Role : uint8_t {
  Input,     ///< ReadOnly: read anywhere.
  Uniform,   ///< Uniform: read anywhere.
  Own,       ///< ReadWrite: each invocation reads and writes its own slots.
  Counter,   ///< ReadWrite U32: contended atomics of one fixed op only.
  Raw,       ///< Bytes, any access: BufLen only; outputs keep the host bytes.
  Workgroup  ///< Workgroup array: own slots before a barrier, anywhere after.
};

/// One buffer of the program and how it may be used.
struct BufferPlan {
  BufferDecl decl;
  Role role = Role::Input;
  /// Element count the program sees (BufLen).
  uint32_t elements = 0;
  /// Own: slots per invocation; Workgroup: slots per local invocation.
  uint32_t slots = 1;
  /// Counter: the one op every atomic on it uses, and for Exchange and
  /// CompareExchange its fixed operands (so the final value is the same
  /// under every order).
  AtomicOp counter_op = AtomicOp::Add;
  uint32_t counter_expected = 0;
  uint32_t counter_value = 0;
  /// Workgroup: written at own slots in the current phase (else read anywhere).
  bool writable_phase = false;
};

/// A live local name.
struct Local {
  std::string name;
  DataType type;
  bool assignable;
};

/// Everything the parts of the generator share while building one program.
struct Plan {
  explicit Plan(uint64_t seed) : rng(seed) {}

  Prng rng;
  ProgramFeatures features;
  GeneratorOptions options;
  std::vector<BufferPlan> buffers;
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  std::array<uint32_t, 3> grid = {1, 1, 1};
  /// Open scopes, innermost last.
  std::vector<std::vector<Local>> scopes;
  /// Names whose scope has closed, free for reuse in a sibling scope.
  std::vector<std::string> closed_names;
  uint32_t next_name = 0;
  /// Statements still to generate.
  int budget = 0;

  uint32_t invocations_per_workgroup() const {
    return workgroup_size[0] * workgroup_size[1] * workgroup_size[2];
  }
  uint32_t total_invocations() const {
    return invocations_per_workgroup() * grid[0] * grid[1] * grid[2];
  }
  /// The value types programs may use, U32 first.
  std::vector<DataType> value_types() const;
  /// Live locals of `type` (assignable ones only when asked).
  std::vector<const Local*> locals_of(DataType type, bool assignable_only) const;
  /// A name that is not live: fresh, or one from a closed sibling scope.
  std::string fresh_name();
  void open_scope() { scopes.emplace_back(); }
  void close_scope();
  void declare(std::string name, DataType type, bool assignable);
};

/// Names of the two locals every program starts with.
inline constexpr const char* kGlobalIndex = "gid";
inline constexpr const char* kLocalIndex = "lid";

// wellformed_expr.cc
/// An expression of `type`, at most about `depth` levels deep.
ExprPtr gen_expr(Plan& p, DataType type, int depth);
/// A U32 or Bool condition.
ExprPtr gen_condition(Plan& p, int depth);
/// A U32 expression every invocation of a workgroup evaluates alike (no
/// locals, ids other than WorkgroupId, atomics or writable buffers).
ExprPtr gen_uniform_u32(Plan& p, int depth);
/// An index of one of the invocation's own slots of `b` (Own or Workgroup).
ExprPtr own_slot(Plan& p, const BufferPlan& b);
/// An index past the end of `b`; with `allow_locals` it may use `gid`.
ExprPtr out_of_bounds_index(Plan& p, const BufferPlan& b, bool allow_locals);
/// A u32 literal value, favouring the edge values.
uint32_t edge_biased_u32(Prng& rng);

// wellformed_stmt.cc
/// The entry body: prologue locals, phases and the barriers between them.
Body gen_entry(Plan& p);

// wellformed_layout.cc
/// Draws the features, the grid and the buffers.
void plan_layout(Plan& p);
/// The host bytes of every non-workgroup buffer.
BufferSet gen_inputs(Plan& p);

}  // namespace vyre::wellformed
