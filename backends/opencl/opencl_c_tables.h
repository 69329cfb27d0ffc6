// How vyre types and operators are spelled in OpenCL C 1.2, as tables. Each
// pattern names its operands $a, $b; expand() fills them in. Operands are
// always temporaries, variables or literals, so a pattern may use one twice.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "spec/ir/types.h"

namespace vyre::opencl {

/// OpenCL C spelling of one vyre value type.
struct OpenClType {
  DataType type;
  std::string_view value;        ///< Type of a value in registers ("bool").
  std::string_view memory;       ///< Element type in a buffer or __local array ("uint").
  std::string_view zero;         ///< The zero value, as a register value.
  std::string_view from_memory;  ///< Pattern: memory element $a -> value.
  std::string_view to_memory;    ///< Pattern: value $a -> memory element.
};

/// The row for `type`; nullopt for types a kernel cannot hold (Bytes, planned).
std::optional<OpenClType> opencl_type(DataType type);

/// Pattern computing `op` on uint operands $a, $b (S3: division by zero is 0,
/// shifts mask their count, comparisons and And/Or yield 0/1).
std::string_view opencl_pattern(BinOp op);
/// Pattern computing `op` on the uint operand $a (Clz/Ctz of 0 are 32).
std::string_view opencl_pattern(UnOp op);
/// Pattern casting $a of type `from` to `to` (pinned spec section 4); nullopt
/// for a cast the table rejects.
std::optional<std::string_view> opencl_cast_pattern(DataType from, DataType to);
/// OpenCL C 1.2 atomic builtin of `op` on a `volatile __global uint*`
/// (atomic_cmpxchg is a strong compare-exchange).
std::string_view opencl_atomic_function(AtomicOp op);

/// Helper functions the patterns call (vyre_reverse_bits), defined once at
/// the top of every kernel source.
extern const std::string_view kOpenClPrelude;

/// `pattern` with $a, $b replaced by the operands in order.
std::string expand(std::string_view pattern, std::initializer_list<std::string_view> operands);

}  // namespace vyre::opencl
