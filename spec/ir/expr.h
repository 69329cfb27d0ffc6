// The 15 expression kinds of vyre 0.4.0 (pinned spec section 2). Expressions
// are immutable trees shared through ExprPtr, so programs copy cheaply.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "spec/ir/types.h"
#include "spec/support/source_loc.h"

namespace vyre {

struct Expr;
/// Shared, immutable expression; never null inside a well-formed program.
using ExprPtr = std::shared_ptr<const Expr>;

namespace expr {
/// A u32 literal.
struct LitU32 {
  uint32_t value;
};
/// An i32 literal.
struct LitI32 {
  int32_t value;
};
/// A bool literal.
struct LitBool {
  bool value;
};
/// A reference to a Let binding or loop variable.
struct Var {
  std::string name;
};
/// buffer[index]; out of bounds reads the zero of the element type.
struct Load {
  std::string buffer;
  ExprPtr index;
};
/// Element count of a buffer (backing u32 words for Bytes).
struct BufLen {
  std::string buffer;
};
/// Global invocation index on an axis.
struct InvocationId {
  uint32_t axis;
};
/// Workgroup index on an axis.
struct WorkgroupId {
  uint32_t axis;
};
/// Position within the workgroup on an axis.
struct LocalId {
  uint32_t axis;
};
/// left op right, left evaluated first.
struct Binary {
  BinOp op;
  ExprPtr left;
  ExprPtr right;
};
/// op operand.
struct Unary {
  UnOp op;
  ExprPtr operand;
};
/// Compile-time inlined call of a registered inlinable op.
struct Call {
  std::string op_id;
  std::vector<ExprPtr> args;
};
/// cond ? if_true : if_false, evaluating cond then BOTH arms.
struct Select {
  ExprPtr cond;
  ExprPtr if_true;
  ExprPtr if_false;
};
/// Conversion through the cast table (pinned spec section 4).
struct Cast {
  DataType target;
  ExprPtr value;
};
/// Atomic read-modify-write; returns the old value. `expected` is set for
/// CompareExchange only. Evaluates index, expected, value in that order.
struct Atomic {
  AtomicOp op;
  std::string buffer;
  ExprPtr index;
  ExprPtr expected;
  ExprPtr value;
};
}  // namespace expr

/// One expression node: its kind and where it was written.
struct Expr {
  using Kind =
      std::variant<expr::LitU32, expr::LitI32, expr::LitBool, expr::Var, expr::Load, expr::BufLen,
                   expr::InvocationId, expr::WorkgroupId, expr::LocalId, expr::Binary, expr::Unary,
                   expr::Call, expr::Select, expr::Cast, expr::Atomic>;
  Kind kind;
  SourceLoc loc;

  template <typename T>
  const T* as() const {
    return std::get_if<T>(&kind);
  }
};

/// Structural equality; source locations are ignored.
bool equal(const Expr& a, const Expr& b);
bool equal(const ExprPtr& a, const ExprPtr& b);

}  // namespace vyre
