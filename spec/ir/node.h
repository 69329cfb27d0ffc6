// The 8 statement kinds of vyre 0.4.0 (pinned spec section 2). Statements own
// their bodies by value; expressions inside are shared.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "spec/ir/expr.h"

namespace vyre {

struct Node;
/// A sequence of statements executed in order.
using Body = std::vector<Node>;

namespace node {
/// let name = value; introduces a mutable local (no shadowing).
struct Let {
  std::string name;
  ExprPtr value;
};
/// name = value; updates the nearest visible binding.
struct Assign {
  std::string name;
  ExprPtr value;
};
/// buffer[index] = value; out of bounds does nothing.
struct Store {
  std::string buffer;
  ExprPtr index;
  ExprPtr value;
};
/// if cond { then_body } else { otherwise }.
struct If {
  ExprPtr cond;
  Body then_body;
  Body otherwise;
};
/// for var in [from, to) { body }; bounds evaluated once at entry.
struct Loop {
  std::string var;
  ExprPtr from;
  ExprPtr to;
  Body body;
};
/// Ends the invocation.
struct Return {};
/// A nested scope.
struct Block {
  Body body;
};
/// Workgroup barrier: all invocations of the workgroup arrive, then storage and
/// workgroup writes before it are visible to the workgroup.
struct Barrier {};
}  // namespace node

/// One statement node: its kind and where it was written.
struct Node {
  using Kind = std::variant<node::Let, node::Assign, node::Store, node::If, node::Loop,
                            node::Return, node::Block, node::Barrier>;
  Kind kind;
  SourceLoc loc;

  template <typename T>
  const T* as() const {
    return std::get_if<T>(&kind);
  }
};

/// Structural equality; source locations are ignored.
bool equal(const Node& a, const Node& b);
bool equal(const Body& a, const Body& b);

}  // namespace vyre
