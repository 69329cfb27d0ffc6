// Structural equality of IR trees, ignoring source locations.
#include "spec/ir/program.h"

namespace vyre {
namespace {

bool same_list(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!equal(a[i], b[i])) return false;
  }
  return true;
}

struct ExprEq {
  const Expr::Kind& other;
  template <typename T>
  bool operator()(const T& a) const {
    const T& b = std::get<T>(other);
    using namespace expr;
    if constexpr (std::is_same_v<T, LitU32> || std::is_same_v<T, LitI32> ||
                  std::is_same_v<T, LitBool>) {
      return a.value == b.value;
    } else if constexpr (std::is_same_v<T, Var>) {
      return a.name == b.name;
    } else if constexpr (std::is_same_v<T, Load>) {
      return a.buffer == b.buffer && equal(a.index, b.index);
    } else if constexpr (std::is_same_v<T, BufLen>) {
      return a.buffer == b.buffer;
    } else if constexpr (std::is_same_v<T, InvocationId> || std::is_same_v<T, WorkgroupId> ||
                         std::is_same_v<T, LocalId>) {
      return a.axis == b.axis;
    } else if constexpr (std::is_same_v<T, Binary>) {
      return a.op == b.op && equal(a.left, b.left) && equal(a.right, b.right);
    } else if constexpr (std::is_same_v<T, Unary>) {
      return a.op == b.op && equal(a.operand, b.operand);
    } else if constexpr (std::is_same_v<T, Call>) {
      return a.op_id == b.op_id && same_list(a.args, b.args);
    } else if constexpr (std::is_same_v<T, Select>) {
      return equal(a.cond, b.cond) && equal(a.if_true, b.if_true) && equal(a.if_false, b.if_false);
    } else if constexpr (std::is_same_v<T, Cast>) {
      return a.target == b.target && equal(a.value, b.value);
    } else {
      static_assert(std::is_same_v<T, Atomic>);
      return a.op == b.op && a.buffer == b.buffer && equal(a.index, b.index) &&
             equal(a.expected, b.expected) && equal(a.value, b.value);
    }
  }
};

struct NodeEq {
  const Node::Kind& other;
  template <typename T>
  bool operator()(const T& a) const {
    const T& b = std::get<T>(other);
    using namespace node;
    if constexpr (std::is_same_v<T, Let> || std::is_same_v<T, Assign>) {
      return a.name == b.name && equal(a.value, b.value);
    } else if constexpr (std::is_same_v<T, Store>) {
      return a.buffer == b.buffer && equal(a.index, b.index) && equal(a.value, b.value);
    } else if constexpr (std::is_same_v<T, If>) {
      return equal(a.cond, b.cond) && equal(a.then_body, b.then_body) &&
             equal(a.otherwise, b.otherwise);
    } else if constexpr (std::is_same_v<T, Loop>) {
      return a.var == b.var && equal(a.from, b.from) && equal(a.to, b.to) && equal(a.body, b.body);
    } else if constexpr (std::is_same_v<T, Block>) {
      return equal(a.body, b.body);
    } else {
      static_assert(std::is_same_v<T, Return> || std::is_same_v<T, Barrier>);
      return true;
    }
  }
};

}  // namespace

bool equal(const Expr& a, const Expr& b) {
  if (a.kind.index() != b.kind.index()) return false;
  return std::visit(ExprEq{b.kind}, a.kind);
}

bool equal(const ExprPtr& a, const ExprPtr& b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return equal(*a, *b);
}

bool equal(const Node& a, const Node& b) {
  if (a.kind.index() != b.kind.index()) return false;
  return std::visit(NodeEq{b.kind}, a.kind);
}

bool equal(const Body& a, const Body& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!equal(a[i], b[i])) return false;
  }
  return true;
}

const BufferDecl* Program::buffer(std::string_view name) const {
  for (const BufferDecl& b : buffers) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

bool operator==(const Program& a, const Program& b) {
  return a.buffers == b.buffers && a.workgroup_size == b.workgroup_size && equal(a.entry, b.entry);
}

}  // namespace vyre
