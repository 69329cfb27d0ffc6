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
  Input,      ///< ReadOnly: read anywhere.
  Uniform,    ///< Uniform: read anywhere.
  Own,        ///< ReadWrite: each invocation reads and writes its own slots.
  Counter,    ///< ReadWrite U32: contended atomics of one fixed op only.
  Raw,        ///< Bytes, any access: BufLen only; outputs keep the host bytes.
  Workgroup,  ///< Workgroup array: own slots before a barrier, anywhere after.
  /// A buffer one shape owns (communication, atomic section, trace):
  /// generic statements never load, store or atomically touch it (BufLen
  /// only), so the shape's own construction alone keeps it race-free.
  Dedicated
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
  /// Host words the buffer starts with, when its shape needs known values
  /// (an opaque-constant table, a zeroed flag); else edge-biased bytes.
  std::vector<uint32_t> fixed_words;
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
  /// The size class and the knobs drawn in it (plan_layout).
  SizeClass size = SizeClass::Small;
  uint32_t max_expr_depth = 4;
  uint32_t max_nesting = 3;
  uint32_t max_statements = 32;
  /// Product of the trip bounds of the loops open around the statement being
  /// generated, so nests of loops stay within the step budget.
  uint32_t trip_product = 1;
  /// The most that product may reach: smaller for wide grids, so that every
  /// program fits a step budget proportional to its invocations.
  uint32_t max_trip_product = 64;
  /// Workgroup memory planned so far, in bytes (kept within Vulkan's
  /// guaranteed 16 KiB).
  uint32_t workgroup_bytes = 0;
  /// The opaque-constant table (a Uniform U32 buffer) and its words; empty
  /// name when the program has none.
  std::string opaque_buffer;
  std::vector<uint32_t> opaque_values;
  /// The trace buffer of path nests and its slots per invocation; empty name
  /// when the program has none.
  std::string trace_buffer;
  uint32_t trace_slots = 0;
  /// Next block id a path nest records.
  uint32_t next_block = 1;
  /// Dedicated buffers planned for communication and atomic shapes, used
  /// front to back (a shape with none left is not placed).
  std::vector<std::string> exchange_buffers;
  std::vector<std::string> atomic_buffers;
  /// The value every flag slot of the atomic buffers starts with.
  uint32_t atomic_flag = 0;
  /// Shapes placed so far (GeneratedCase::shapes).
  std::vector<std::string> shapes;

  uint32_t invocations_per_workgroup() const {
    return workgroup_size[0] * workgroup_size[1] * workgroup_size[2];
  }
  uint32_t total_invocations() const {
    return invocations_per_workgroup() * grid[0] * grid[1] * grid[2];
  }
  uint32_t workgroups() const { return grid[0] * grid[1] * grid[2]; }
  /// The planned buffer named `name` (it must exist).
  const BufferPlan& buffer(const std::string& name) const;
  /// Records a shape once per program (GeneratedCase::shapes).
  void note(const std::string& shape);
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
/// The linear index of the invocation's workgroup (declared with lid, for
/// storage regions per workgroup).
inline constexpr const char* kWorkgroupIndex = "wid";
/// The trace pointer and running path hash of path nests (assignable locals
/// generic statements never see).
inline constexpr const char* kTracePointer = "tp";
inline constexpr const char* kTraceHash = "th";

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

/// A U32 statement-level expression depth drawn up to the program's knob.
int draw_expr_depth(Plan& p);

// wellformed_idiom.cc
/// A U32 expression in a shape an optimiser rule rewrites, on edge-valued
/// (often opaque) operands.
ExprPtr gen_idiom(Plan& p, int depth);
/// An edge value the compiler cannot see: a load of the opaque table, or a
/// literal when the program has none. `value` receives the value.
ExprPtr opaque_edge(Plan& p, uint32_t& value);

// wellformed_stmt.cc
/// The entry body: prologue locals, phases and the barriers between them.
Body gen_entry(Plan& p);
/// Up to `length` statements appended to `out` at `nesting`.
void gen_statements(Plan& p, Body& out, int nesting, bool may_return, int length);

// wellformed_comm.cc
/// One communication shape at top level (uniform control flow, no Return
/// before it): a loop of barrier-separated exchange phases, its result
/// folded into an own output slot.
void gen_communication(Plan& p, Body& out);
/// One atomic shape at top level: a single-winner section, a reduction read
/// after a barrier, or a bounded compare-exchange retry loop.
void gen_atomic_shape(Plan& p, Body& out);
/// Plans the dedicated buffers the shapes use (plan_layout calls it).
void plan_shape_buffers(Plan& p);

// wellformed_path.cc
/// A nest of If, Loop and Return deciding on input buffers, each block
/// recording its id in the invocation's trace slots.
void gen_path_nest(Plan& p, Body& out, int nesting, bool may_return);
/// The prologue of path tracing: the trace pointer and hash locals.
void gen_trace_prologue(Body& out);
/// A guard decided by the opaque table: live code behind a condition true at
/// run time, or dead code (that would race if it ran) behind a false one.
void gen_opaque_guard(Plan& p, Body& out, int nesting, bool may_return);

// wellformed_layout.cc
/// Adds a buffer (bindings are given once every buffer is planned).
BufferPlan& add_buffer(Plan& p, std::string name, Role role, BufferAccess access, DataType element);
/// Draws the features, the grid and the buffers.
void plan_layout(Plan& p);
/// The host bytes of every non-workgroup buffer.
BufferSet gen_inputs(Plan& p);

}  // namespace vyre::wellformed
