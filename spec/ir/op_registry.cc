#include "spec/ir/op_registry.h"

#include "spec/ir/builder.h"

namespace vyre {
namespace {

using namespace build;
using K = Law::Kind;

ExprPtr a() {
  return var("a");
}
ExprPtr b() {
  return var("b");
}
ExprPtr c() {
  return var("c");
}
constexpr uint32_t kMax = 0xFFFFFFFFu;

OpSpec binop_primitive(BinOp op, std::vector<Law> laws) {
  return OpSpec{"primitive." + std::string(name_of(op)),
                2,
                true,
                binary(op, a(), b()),
                std::move(laws),
                std::string(doc_of(op))};
}

OpSpec unop_primitive(UnOp op, std::vector<Law> laws) {
  return OpSpec{"primitive." + std::string(name_of(op)),
                1,
                true,
                unary(op, a()),
                std::move(laws),
                std::string(doc_of(op))};
}

OpRegistry make_standard() {
  OpRegistry r;
  r.add(binop_primitive(BinOp::Add, {{K::Commutative}, {K::Associative}, {K::Identity, 0}}));
  r.add(binop_primitive(BinOp::Sub, {{K::RightIdentity, 0}, {K::SelfInverse, 0}}));
  r.add(binop_primitive(BinOp::Mul,
                        {{K::Commutative}, {K::Associative}, {K::Identity, 1}, {K::Absorbing, 0}}));
  r.add(binop_primitive(BinOp::Div, {{K::RightIdentity, 1}}));
  r.add(binop_primitive(BinOp::Mod, {}));
  r.add(binop_primitive(BinOp::BitAnd, {{K::Commutative},
                                        {K::Associative},
                                        {K::Identity, kMax},
                                        {K::Absorbing, 0},
                                        {K::Idempotent}}));
  r.add(binop_primitive(BinOp::BitOr, {{K::Commutative},
                                       {K::Associative},
                                       {K::Identity, 0},
                                       {K::Absorbing, kMax},
                                       {K::Idempotent}}));
  r.add(binop_primitive(
      BinOp::BitXor, {{K::Commutative}, {K::Associative}, {K::Identity, 0}, {K::SelfInverse, 0}}));
  r.add(binop_primitive(BinOp::Shl, {{K::RightIdentity, 0}}));
  r.add(binop_primitive(BinOp::Shr, {{K::RightIdentity, 0}}));
  r.add(binop_primitive(BinOp::Eq, {{K::Commutative}, {K::SelfInverse, 1}}));
  r.add(binop_primitive(BinOp::Ne, {{K::Commutative}, {K::SelfInverse, 0}}));
  r.add(binop_primitive(BinOp::Lt, {{K::SelfInverse, 0}}));
  r.add(binop_primitive(BinOp::Gt, {{K::SelfInverse, 0}}));
  r.add(binop_primitive(BinOp::Le, {{K::SelfInverse, 1}}));
  r.add(binop_primitive(BinOp::Ge, {{K::SelfInverse, 1}}));
  r.add(binop_primitive(BinOp::And, {{K::Commutative}, {K::Associative}}));
  r.add(binop_primitive(BinOp::Or, {{K::Commutative}, {K::Associative}}));
  r.add(unop_primitive(UnOp::Negate, {{K::Involution}}));
  r.add(unop_primitive(UnOp::BitNot, {{K::Involution}}));
  r.add(unop_primitive(UnOp::LogicalNot, {}));
  r.add(unop_primitive(UnOp::Popcount, {}));
  r.add(unop_primitive(UnOp::Clz, {}));
  r.add(unop_primitive(UnOp::Ctz, {}));
  r.add(unop_primitive(UnOp::ReverseBits, {{K::Involution}}));
  // Compositions that are more than one IR operator.
  r.add({"primitive.min",
         2,
         true,
         select(lt(a(), b()), a(), b()),
         {{K::Commutative},
          {K::Associative},
          {K::Identity, kMax},
          {K::Absorbing, 0},
          {K::Idempotent}},
         "unsigned min(a, b)"});
  r.add({"primitive.max",
         2,
         true,
         select(gt(a(), b()), a(), b()),
         {{K::Commutative},
          {K::Associative},
          {K::Identity, 0},
          {K::Absorbing, kMax},
          {K::Idempotent}},
         "unsigned max(a, b)"});
  r.add({"primitive.abs_diff",
         2,
         true,
         select(gt(a(), b()), sub(a(), b()), sub(b(), a())),
         {{K::Commutative}, {K::RightIdentity, 0}, {K::SelfInverse, 0}},
         "unsigned |a - b|"});
  r.add({"primitive.rotl",
         2,
         true,
         bit_or(shl(a(), b()), shr(a(), sub(u32(32), bit_and(b(), u32(31))))),
         {{K::RightIdentity, 0}},
         "rotate a left by b & 31"});
  r.add({"primitive.clamp",
         3,
         true,
         call("primitive.min", {call("primitive.max", {a(), b()}), c()}),
         {},
         "min(max(a, b), c): a clamped to [b, c]"});
  r.add({"graph.bfs", 0, false, nullptr, {}, "multi-source BFS over CSR (seed 001)"});
  r.add({"graph.reachability", 0, false, nullptr, {}, "multi-source reachability (seed 001)"});
  return r;
}

}  // namespace

std::string_view name_of(Law::Kind k) {
  switch (k) {
    case K::Commutative:
      return "commutative";
    case K::Associative:
      return "associative";
    case K::Identity:
      return "identity";
    case K::RightIdentity:
      return "right_identity";
    case K::Absorbing:
      return "absorbing";
    case K::Idempotent:
      return "idempotent";
    case K::SelfInverse:
      return "self_inverse";
    case K::Involution:
      return "involution";
  }
  return "?";
}

const OpRegistry& OpRegistry::standard() {
  static const OpRegistry registry = make_standard();
  return registry;
}

void OpRegistry::add(OpSpec spec) {
  for (OpSpec& existing : ops_) {
    if (existing.id == spec.id) {
      existing = std::move(spec);
      return;
    }
  }
  ops_.push_back(std::move(spec));
}

const OpSpec* OpRegistry::find(std::string_view id) const {
  for (const OpSpec& op : ops_) {
    if (op.id == id) return &op;
  }
  return nullptr;
}

}  // namespace vyre
