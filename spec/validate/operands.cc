#include "spec/validate/operands.h"

#include <array>
#include <vector>

namespace vyre {
namespace {

// The slots of one node: up to three fixed ones, or a Call's arguments.
struct Slots {
  std::array<const ExprPtr*, 3> fixed = {};
  std::array<std::string_view, 3> names = {};
  size_t count = 0;
  const std::vector<ExprPtr>* args = nullptr;

  Slots& add(const ExprPtr& slot, std::string_view name) {
    fixed[count] = &slot;
    names[count] = name;
    ++count;
    return *this;
  }
};

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

Slots slots_of(const Expr& e) {
  return std::visit(
      Overloaded{
          [](const expr::Load& x) { return Slots{}.add(x.index, "index"); },
          [](const expr::Binary& x) { return Slots{}.add(x.left, "left").add(x.right, "right"); },
          [](const expr::Unary& x) { return Slots{}.add(x.operand, "operand"); },
          [](const expr::Call& x) {
            Slots s;
            s.args = &x.args;
            s.count = x.args.size();
            return s;
          },
          [](const expr::Select& x) {
            return Slots{}
                .add(x.cond, "cond")
                .add(x.if_true, "if_true")
                .add(x.if_false, "if_false");
          },
          [](const expr::Cast& x) { return Slots{}.add(x.value, "value"); },
          [](const expr::Atomic& x) {
            return Slots{}.add(x.index, "index").add(x.expected, "expected").add(x.value, "value");
          },
          [](const auto&) { return Slots{}; },
      },
      e.kind);
}

Slots slots_of(const Node& n) {
  return std::visit(
      Overloaded{
          [](const node::Let& x) { return Slots{}.add(x.value, "value"); },
          [](const node::Assign& x) { return Slots{}.add(x.value, "value"); },
          [](const node::Store& x) { return Slots{}.add(x.index, "index").add(x.value, "value"); },
          [](const node::If& x) { return Slots{}.add(x.cond, "cond"); },
          [](const node::Loop& x) { return Slots{}.add(x.from, "from").add(x.to, "to"); },
          [](const auto&) { return Slots{}; },
      },
      n.kind);
}

// Names indexed by the variant alternative, in Expr::Kind and Node::Kind order.
constexpr std::array<std::string_view, std::variant_size_v<Expr::Kind>> kExprKindNames = {
    "lit_u32",  "lit_i32", "lit_bool", "var",  "load",   "buflen", "invocation_id", "workgroup_id",
    "local_id", "binop",   "unop",     "call", "select", "cast",   "atomic"};
constexpr std::array<std::string_view, std::variant_size_v<Node::Kind>> kNodeKindNames = {
    "let", "assign", "store", "if", "loop", "return", "block", "barrier"};

}  // namespace

size_t operand_count(const Expr& e) {
  return slots_of(e).count;
}
const ExprPtr& operand(const Expr& e, size_t i) {
  const Slots s = slots_of(e);
  return s.args != nullptr ? (*s.args)[i] : *s.fixed[i];
}
std::string_view operand_name(const Expr& e, size_t i) {
  const Slots s = slots_of(e);
  return s.args != nullptr ? "argument" : s.names[i];
}
bool operand_is_optional(const Expr& e, size_t i) {
  return e.as<expr::Atomic>() != nullptr && operand_name(e, i) == "expected";
}

size_t operand_count(const Node& n) {
  return slots_of(n).count;
}
const ExprPtr& operand(const Node& n, size_t i) {
  return *slots_of(n).fixed[i];
}
std::string_view operand_name(const Node& n, size_t i) {
  return slots_of(n).names[i];
}

size_t body_count(const Node& n) {
  if (n.as<node::If>() != nullptr) return 2;
  return n.as<node::Loop>() != nullptr || n.as<node::Block>() != nullptr ? 1 : 0;
}
const Body& body(const Node& n, size_t i) {
  if (const auto* x = n.as<node::If>()) return i == 0 ? x->then_body : x->otherwise;
  if (const auto* x = n.as<node::Loop>()) return x->body;
  return n.as<node::Block>()->body;
}

std::string_view kind_name(const Expr& e) {
  return kExprKindNames[e.kind.index()];
}
std::string_view kind_name(const Node& n) {
  return kNodeKindNames[n.kind.index()];
}

}  // namespace vyre
