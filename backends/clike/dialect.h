// How one C-like language spells what the shared emitter (emitter.h) decides:
// value types, operator and cast patterns, atomic builtins, id builtins, the
// negative i32 literal, the barrier and the helper functions every source
// starts with. A dialect is data only; GLSL (backends/vulkan/glsl_dialect.cc),
// OpenCL C (backends/opencl/opencl_c_dialect.cc) and CUDA C
// (backends/cuda/cuda_c_dialect.cc) are its instances.
//
// Patterns name their operands $a, $b, $c; expand() fills them in. Operands
// are always temporaries, variables or literals, so a pattern may use one
// twice.
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "spec/ir/types.h"

namespace vyre::clike {

/// The spelling of one vyre value type.
struct TypeSpelling {
  DataType type;
  std::string_view value;        ///< Type of a value in registers ("bool").
  std::string_view memory;       ///< Element type in a buffer or workgroup array ("uint").
  std::string_view zero;         ///< The zero value, as a register value.
  std::string_view memory_zero;  ///< The zero value, as a memory element.
  std::string_view from_memory;  ///< Pattern: memory element $a -> value.
  std::string_view to_memory;    ///< Pattern: value $a -> memory element.
};

/// One valid non-identity cell of the pinned cast table.
struct CastSpelling {
  DataType from;
  DataType to;
  std::string_view pattern;
};

/// The three id builtins, each a pattern of the axis: $a is its digit ("0"),
/// $b its letter ("x"), so a dialect may index or name it.
struct IdBuiltins {
  std::string_view invocation;  ///< The global invocation id.
  std::string_view workgroup;   ///< The workgroup id.
  std::string_view local;       ///< The id within the workgroup.
};

/// The statements of one vyre Barrier (S6): the memory fences before the
/// execution barrier, the barrier itself, and the fences after it. A dialect
/// whose barrier carries its fences has none before or after.
struct BarrierSpelling {
  std::span<const std::string_view> fences_before;
  std::string_view execution;
  std::span<const std::string_view> fences_after;
};

/// A C-like language's spelling of the lowered code.
struct Dialect {
  std::string_view name;  ///< "GLSL 450", "OpenCL C 1.2": for messages.
  /// U32, I32, Vec2U32 and Vec4U32; type() spells U64 as Vec2U32 and Bool
  /// from U32 and the Bool casts.
  std::span<const TypeSpelling> types;
  /// The unary operators the language spells its own way; every binary
  /// operator and the rest of the unary ones are clike's (dialect.cc).
  std::span<const std::pair<UnOp, std::string_view>> un_ops;
  /// The casts the language spells its own way; the component selections,
  /// Bool's C casts and a vector's first word to I32 are clike's.
  std::span<const CastSpelling> casts;
  std::span<const std::pair<AtomicOp, std::string_view>> atomics;
  /// Pattern of an atomic builtin's first argument from the element $a:
  /// "$a" where it takes the element (GLSL), "&$a" where a pointer.
  std::string_view atomic_target;
  IdBuiltins ids;
  /// Pattern of a negative i32 literal from its bits $a, written "0x%08Xu"
  /// (-2147483648 is no literal in C: it is the negation of a long).
  std::string_view negative_i32;
  BarrierSpelling barrier;
  /// Helper functions the patterns call, defined once before the entry.
  std::string_view prelude;

  /// The row for `type`; nullopt for types a kernel cannot hold (Bytes, planned).
  std::optional<TypeSpelling> type(DataType type) const;
  /// Pattern computing `op` on u32 operands $a, $b (S3: division by zero is
  /// 0, shifts mask their count, comparisons and And/Or yield 0/1, as the
  /// Bool -> U32 cast spells it).
  std::string pattern(BinOp op) const;
  /// Pattern computing `op` on the u32 operand $a (Clz/Ctz of 0 are 32).
  std::string pattern(UnOp op) const;
  /// Pattern casting $a of type `from` to `to` (pinned spec section 4);
  /// nullopt for a cast the table rejects.
  std::optional<std::string> cast_pattern(DataType from, DataType to) const;
  /// The atomic builtin of `op` (its compare-exchange is a strong one).
  std::string_view atomic_function(AtomicOp op) const;
};

/// `pattern` with $a, $b, $c replaced by the operands in order.
std::string expand(std::string_view pattern, std::initializer_list<std::string_view> operands);

}  // namespace vyre::clike
