// A generator of random well-defined programs with edge-biased inputs, for
// differential testing of backends against the reference interpreter.
// Every program is valid (validate() accepts it), terminates within a small
// step budget, and is conforming by construction: each invocation stores
// only to its own slots of output buffers (slots derived from its global
// id), shared inputs are only read, workgroup arrays are written at own
// slots, then a barrier in uniform control flow, then read anywhere, and
// contended locations are touched by atomics only, one order-independent
// operation per buffer whose return value is masked to zero. On top of that
// come shapes whose invocations communicate (wellformed_comm.cc: exchanges
// between barrier-separated phases, atomic sections and reductions, bounded
// compare-exchange loops), control-flow nests that record their path
// (wellformed_path.cc) and expressions shaped like optimiser rules
// (wellformed_idiom.cc), each conforming by its own construction. Sizes
// are drawn per program (mostly small, some large). Draws come from Prng
// alone, so a seed names the same case forever, whatever the compiler: at
// most one argument of a call (or operand of an operator) may draw, since
// C++ leaves their order unspecified (GCC evaluates the last first, clang
// the first; where two drew, GCC's order is now written out).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/test_case.h"

namespace vyre {

/// The features one program may use. Swarm testing draws a random subset
/// per program, so features that crowd each other out still meet alone.
struct ProgramFeatures {
  bool ifs = true;                ///< If statements with data-dependent conditions.
  bool loops = true;              ///< Loops with data-dependent, bounded trip counts.
  bool blocks = true;             ///< Nested Block scopes.
  bool selects = true;            ///< Select expressions.
  bool calls = true;              ///< Calls of the inlinable primitive.* ops.
  bool casts = true;              ///< Casts between the value types.
  bool wide_types = true;         ///< I32, U64, Vec2U32, Vec4U32 and Bool values and buffers.
  bool own_atomics = true;        ///< Atomics on the invocation's own slots (results used).
  bool contended_atomics = true;  ///< Atomics shared by all invocations (results masked).
  bool workgroup_ids = true;      ///< LocalId, WorkgroupId and a per-workgroup shape dependence.
  bool barriers = true;           ///< Several phases separated by barriers (needs workgroup_ids).
  bool workgroup_memory = true;   ///< Workgroup arrays (needs workgroup_ids).
  bool uniform_buffers = true;    ///< Uniform-access input buffers.
  bool bytes_buffers = true;      ///< Bytes buffers of every length mod 4 (BufLen only).
  bool out_of_bounds = true;      ///< Out-of-bounds loads, stores and atomics.
  bool early_return = true;       ///< Return statements, a partial-grid guard among them.
  bool multi_axis = true;         ///< Workgroups and grids with y and z extents above 1.
  bool shadowing = true;          ///< Names reused in sibling scopes.
  /// An If holding a Loop whose body returns (last phase only, no barrier
  /// after it), then an own-slot store the Return skips.
  bool return_in_loop = true;
  /// Read-modify-write of an own slot through one named index: load it,
  /// store it, load it again by the same index expression.
  bool reload_after_store = true;
  /// Loops of barrier-separated phases in which invocations read slots
  /// others wrote (neighbour exchange, tree reduction, prefix scan, bitonic
  /// steps), in workgroup memory or a storage region per workgroup (needs
  /// barriers).
  bool communication = true;
  /// Atomic sections (one winner writes a value that does not depend on who
  /// won), atomic reductions read after a barrier, and bounded
  /// compare-exchange retry loops (needs barriers).
  bool atomic_sections = true;
  /// Nests of If, Loop and Return deciding on input buffers whose blocks
  /// record their ids in the invocation's own trace slots (a path oracle).
  bool path_trace = true;
  /// Expressions in the shapes optimisers rewrite (shift/mask chains, min/max
  /// idioms, multiplication and division by constants, casts of casts, select
  /// of comparisons) on edge-valued operands.
  bool rule_idioms = true;
  /// A uniform buffer of known values standing in for constants, so guards
  /// built on it are decided only at run time.
  bool opaque_constants = true;
};

/// Knobs of the generator; the defaults keep reference runs fast.
struct GeneratorOptions {
  /// Draw a random subset of features per program (swarm testing); when
  /// false every feature of `features` is used.
  bool swarm = true;
  /// The features available; swarm testing draws a subset of these.
  ProgramFeatures features;
  /// Draw a size class per program (swarm testing over the size knobs
  /// too): mostly small programs, some with many statements, deep
  /// expressions and nests, some with wide workgroups or large grids, each
  /// knob capped by the maxima below. When false every program is drawn up
  /// to the maxima.
  bool swarm_sizes = true;
  /// Statements generated per program, roughly (nesting included).
  uint32_t max_statements = 300;
  /// Deepest expression below a statement, roughly.
  uint32_t max_expr_depth = 10;
  /// Deepest If/Loop/Block nesting.
  uint32_t max_nesting = 6;
  /// Most invocations in the grid.
  uint32_t max_invocations = 65536;
  /// Most invocations in one workgroup. 128 is Vulkan's guaranteed
  /// maxComputeWorkGroupInvocations, so a certification never asks a
  /// conforming device for more; `vyre-certify generate` draws up to 1024
  /// (a backend refuses a larger workgroup than its device's as not
  /// supported).
  uint32_t max_workgroup_invocations = 128;
};

/// The size class a program was drawn in (GeneratorOptions::swarm_sizes).
enum class SizeClass : uint8_t {
  Small,      ///< up to 32 statements, depth 4, nesting 3, 192 invocations
  Deep,       ///< many statements, deep expressions and nests, small grid
  Wide,       ///< wide workgroups, grids of thousands of invocations
  LargeGrid,  ///< up to max_invocations, few statements
};

/// Text name of a size class ("small", "deep", "wide", "large_grid").
const char* name_of(SizeClass size);

/// A generated case and the features it was drawn with.
struct GeneratedCase {
  TestCase test_case;
  ProgramFeatures features;
  SizeClass size = SizeClass::Small;
  /// The shapes drawn beyond single statements, one name each time one is
  /// placed ("comm.neighbour.workgroup", "atomic.section", "path.nest",
  /// "idiom.min_max", ...), for tests and `vyre-certify generate`.
  std::vector<std::string> shapes;
};

/// The case for `seed`: program, grid and edge-biased inputs; `name` is
/// "wellformed-<seed>" and `expected` is empty (the reference defines it).
GeneratedCase generate_wellformed(uint64_t seed, const GeneratorOptions& options = {});

/// generate_wellformed(seed, options).test_case.
TestCase generate_wellformed_case(uint64_t seed, const GeneratorOptions& options = {});

/// The edge values inputs and literals favour: 0, 1, 31, 32, 33, 0x7fffffff,
/// 0x80000000, 0xffffffff and small negatives.
std::vector<uint32_t> edge_values();

}  // namespace vyre
