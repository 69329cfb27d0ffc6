// Program-building helpers shared by the validator tests.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "spec/ir/builder.h"
#include "spec/ir/op_registry.h"
#include "spec/validate/validator.h"

namespace vyre::testing {

/// A program with the given buffers, body and workgroup size.
Program program_of(std::vector<BufferDecl> buffers, Body entry,
                   std::array<uint32_t, 3> workgroup_size = {1, 1, 1});

/// `in`: ReadOnly U32 at binding 0; `out`: ReadWrite U32 at binding 1.
std::vector<BufferDecl> in_out();

/// A program over in_out() with the given body.
Program simple(Body entry);

/// An expression of type `t` built only from literals and valid casts
/// (never Bytes or a planned type).
ExprPtr value_of(DataType t);

/// An expression of exactly `size` tree nodes (counting shared nodes once
/// per use) built from a few dozen shared nodes, and no deeper than 64.
ExprPtr expression_of_size(uint64_t size);

/// `depth` Blocks nested in one another around `innermost`, built without recursion.
Body nested_blocks(size_t depth, Body innermost = {});

/// Destroys a body of any depth without recursion (the destructors of deep
/// trees would overflow the stack).
void dismantle(Body body);

/// An expression chain of `depth` nodes (BitNot ... BitNot 1) that keeps a
/// reference to every node, so that it can be destroyed root first without
/// recursion whatever its depth. Programs holding root() must be destroyed
/// first, so declare the DeepExpression before them.
class DeepExpression {
 public:
  explicit DeepExpression(size_t depth);
  ~DeepExpression();
  DeepExpression(const DeepExpression&) = delete;
  DeepExpression& operator=(const DeepExpression&) = delete;

  /// The outermost node.
  const ExprPtr& root() const { return nodes_.back(); }

 private:
  std::vector<ExprPtr> nodes_;  // leaf first
};

/// A registry of `length` inlinable unary ops chain.0 ... chain.N-1 where
/// chain.i calls chain.i+1 and the last returns its argument: calling chain.0
/// has call depth `length`.
OpRegistry call_chain(size_t length);

/// The rules of a diagnostic list, in order.
std::vector<RuleId> rules_of(const std::vector<Diagnostic>& diagnostics);

}  // namespace vyre::testing
