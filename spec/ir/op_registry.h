// Registered operations that Expr::Call may name (V016, V017, V020). The
// standard registry holds the layer-1 scalar primitives (inlinable, each with
// an IR composition over parameters named a, b, c) and the layer-2 graph ops
// (registered, not inlinable).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ir/expr.h"

namespace vyre {

/// An algebraic law an op declares; checked exhaustively on u8 inputs and on
/// seeded u32 witnesses by reference/ tests.
struct Law {
  enum class Kind : uint8_t {
    Commutative,    ///< f(a, b) == f(b, a)
    Associative,    ///< f(f(a, b), c) == f(a, f(b, c))
    Identity,       ///< f(a, e) == a and f(e, a) == a
    RightIdentity,  ///< f(a, e) == a
    Absorbing,      ///< f(a, z) == z and f(z, a) == z
    Idempotent,     ///< f(a, a) == a
    SelfInverse,    ///< f(a, a) == constant
    Involution,     ///< f(f(a)) == a
  };
  Kind kind;
  uint32_t constant = 0;
};

/// Name of a law kind, for reports and test names.
std::string_view name_of(Law::Kind k);

/// One registered operation.
struct OpSpec {
  std::string id;
  uint32_t arity = 0;
  bool inlinable = false;
  /// The op's meaning as IR over Var("a"), Var("b"), Var("c"); may Call other
  /// ops. Null for ops that are not inlinable.
  ExprPtr composition;
  std::vector<Law> laws;
  std::string doc;
};

/// A set of operations looked up by id.
class OpRegistry {
 public:
  /// The layer-1 primitives and layer-2 graph ops of the standard library.
  static const OpRegistry& standard();

  /// Adds (or replaces) an op; tests use this to build deep call chains.
  void add(OpSpec spec);
  /// The op with this id, or nullptr.
  const OpSpec* find(std::string_view id) const;
  const std::vector<OpSpec>& ops() const { return ops_; }

 private:
  std::vector<OpSpec> ops_;
};

/// Parameter names of compositions, in argument order.
inline constexpr std::string_view kOpParams[] = {"a", "b", "c"};

}  // namespace vyre
