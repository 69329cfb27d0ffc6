// Which parts of the IR a set of programs exercises: every operation with
// the type it acts on and the context it sits in, mergeable across programs,
// with the list of what a fixed universe still misses.
//
// The universe is everything a valid program can contain, derived from the
// IR tables: every BinOp, UnOp, AtomicOp and inlinable Call on U32; every
// cell of the cast table between the six value types; Load of each value
// type from each readable access kind; BufLen of each stable type (Bytes
// included) on each access kind; Store of each value type to ReadWrite and
// Workgroup buffers; literals, variables and Selects of their types; the
// three ids on each axis; every statement kind; two shapes that span several
// nodes, "shape.return_in_loop_under_if" (a Return inside a Loop inside an
// If) and "shape.load_after_store" (a Load whose buffer and index tree equal
// those of a Store earlier in the same or an enclosing body). And every
// expression kind in every context. And whole-program entries
// (coverage_shapes.cc): size classes of statements, nesting, expression
// depth, workgroup and grid ("size.*"); each statement kind directly in an
// If, Loop or Block ("pair.<outer>.<inner>"); communication signatures
// ("comm.*": a loop of barrier-separated phases storing and loading one
// buffer, an atomic-guarded section, an atomic read after a barrier, a
// compare-exchange retry loop); a path oracle's block records, an opaque
// guard, and optimiser-rule shapes ("shape.*"). Left out because no valid program has
// them: Load, Store and Atomic on Bytes (V013), casts from Bytes (no Bytes
// values exist) or to Bytes (V023), U64/Vec2U32 to Vec4U32 (V012), planned
// types (V038), stores to ReadOnly or Uniform buffers (V005), atomics on
// non-U32 or Workgroup buffers (V014, V025), and calls of the non-inlinable
// graph.* ops (V020).
#pragma once

#include <compare>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ir/program.h"
#include "spec/ir/test_case.h"

namespace vyre {

/// Where an expression sits: the nearest enclosing Select, Atomic, Load
/// index or Call argument, else the statement slot at its root (Binary,
/// Unary and Cast operands take their parent's context). Statements record
/// the body they are in.
enum class CoverageContext : uint8_t {
  LetValue,
  AssignValue,
  StoreIndex,
  StoreValue,
  IfCond,
  LoopBound,
  SelectCond,
  SelectArm,
  AtomicIndex,
  AtomicOperand,  ///< value or expected
  LoadIndex,
  CallArg,
  TopLevel,   ///< statement directly in the entry body
  IfBody,     ///< statement in an If arm
  LoopBody,   ///< statement in a Loop body
  BlockBody,  ///< statement in a Block
};

/// Text name of a context ("let_value", ...).
std::string_view name_of(CoverageContext context);

/// One thing a program did: an operation ("bin.add", "cast.from.u64",
/// "load.uniform", "stmt.store.workgroup", ...), the type it acts on (the
/// result type; the buffer element type for loads, stores and BufLen; the
/// target type for casts; the value or condition type for statements) and
/// its context.
struct CoverageHit {
  std::string op;
  DataType type;
  CoverageContext context;
  auto operator<=>(const CoverageHit&) const = default;
};

/// The hits of one or more programs.
class Coverage {
 public:
  void add(CoverageHit hit) { hits_.insert(std::move(hit)); }
  /// Adds every hit of `other`.
  void merge(const Coverage& other) { hits_.insert(other.hits_.begin(), other.hits_.end()); }
  const std::set<CoverageHit>& hits() const { return hits_; }
  /// The universe's entries not hit, one line each: "op type" for the
  /// operation-by-type universe, "kind @ context" for the expression-kind
  /// by context universe. Empty when everything is reached.
  std::vector<std::string> missing() const;
  /// Size of the universe (both parts), for reports.
  static size_t universe_size();

 private:
  std::set<CoverageHit> hits_;
};

/// Everything `program` exercises (it must be valid; unknown names are skipped).
Coverage coverage_of(const Program& program);

/// coverage_of(test_case.program) and the class of its grid's invocation count.
Coverage coverage_of(const TestCase& test_case);

}  // namespace vyre
