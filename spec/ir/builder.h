// A small builder so programs read well in code and tests:
//   using namespace vyre::build;
//   Program p{{storage("in", 0, BufferAccess::ReadOnly), storage("out", 1,
//   BufferAccess::ReadWrite)},
//             {64, 1, 1},
//             {store("out", invocation_id(0), add(load("in", invocation_id(0)), u32(1)))}};
#pragma once

#include "spec/ir/program.h"

namespace vyre::build {

/// Wraps an expression kind into a shared node.
template <typename T>
ExprPtr make(T kind, SourceLoc loc = {}) {
  return std::make_shared<const Expr>(Expr{std::move(kind), loc});
}

inline ExprPtr u32(uint32_t v) {
  return make(expr::LitU32{v});
}
inline ExprPtr i32(int32_t v) {
  return make(expr::LitI32{v});
}
inline ExprPtr boolean(bool v) {
  return make(expr::LitBool{v});
}
inline ExprPtr var(std::string name) {
  return make(expr::Var{std::move(name)});
}
inline ExprPtr load(std::string buf, ExprPtr index) {
  return make(expr::Load{std::move(buf), std::move(index)});
}
inline ExprPtr buflen(std::string buf) {
  return make(expr::BufLen{std::move(buf)});
}
inline ExprPtr invocation_id(uint32_t axis) {
  return make(expr::InvocationId{axis});
}
inline ExprPtr workgroup_id(uint32_t axis) {
  return make(expr::WorkgroupId{axis});
}
inline ExprPtr local_id(uint32_t axis) {
  return make(expr::LocalId{axis});
}
inline ExprPtr binary(BinOp op, ExprPtr l, ExprPtr r) {
  return make(expr::Binary{op, std::move(l), std::move(r)});
}
inline ExprPtr unary(UnOp op, ExprPtr x) {
  return make(expr::Unary{op, std::move(x)});
}
inline ExprPtr call(std::string op_id, std::vector<ExprPtr> args) {
  return make(expr::Call{std::move(op_id), std::move(args)});
}
inline ExprPtr select(ExprPtr c, ExprPtr t, ExprPtr f) {
  return make(expr::Select{std::move(c), std::move(t), std::move(f)});
}
inline ExprPtr cast(DataType target, ExprPtr v) {
  return make(expr::Cast{target, std::move(v)});
}
inline ExprPtr atomic(AtomicOp op, std::string buf, ExprPtr index, ExprPtr value) {
  return make(expr::Atomic{op, std::move(buf), std::move(index), nullptr, std::move(value)});
}
inline ExprPtr compare_exchange(std::string buf, ExprPtr index, ExprPtr expected, ExprPtr value) {
  return make(expr::Atomic{AtomicOp::CompareExchange, std::move(buf), std::move(index),
                           std::move(expected), std::move(value)});
}

// One helper per BinOp, named after the operator (and_/or_ avoid C++ keywords).
inline ExprPtr add(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Add, l, r);
}
inline ExprPtr sub(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Sub, l, r);
}
inline ExprPtr mul(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Mul, l, r);
}
inline ExprPtr div(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Div, l, r);
}
inline ExprPtr mod(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Mod, l, r);
}
inline ExprPtr bit_and(ExprPtr l, ExprPtr r) {
  return binary(BinOp::BitAnd, l, r);
}
inline ExprPtr bit_or(ExprPtr l, ExprPtr r) {
  return binary(BinOp::BitOr, l, r);
}
inline ExprPtr bit_xor(ExprPtr l, ExprPtr r) {
  return binary(BinOp::BitXor, l, r);
}
inline ExprPtr shl(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Shl, l, r);
}
inline ExprPtr shr(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Shr, l, r);
}
inline ExprPtr eq(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Eq, l, r);
}
inline ExprPtr ne(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Ne, l, r);
}
inline ExprPtr lt(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Lt, l, r);
}
inline ExprPtr gt(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Gt, l, r);
}
inline ExprPtr le(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Le, l, r);
}
inline ExprPtr ge(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Ge, l, r);
}
inline ExprPtr and_(ExprPtr l, ExprPtr r) {
  return binary(BinOp::And, l, r);
}
inline ExprPtr or_(ExprPtr l, ExprPtr r) {
  return binary(BinOp::Or, l, r);
}

template <typename T>
Node stmt(T kind, SourceLoc loc = {}) {
  return Node{std::move(kind), loc};
}
inline Node let(std::string name, ExprPtr v) {
  return stmt(node::Let{std::move(name), std::move(v)});
}
inline Node assign(std::string name, ExprPtr v) {
  return stmt(node::Assign{std::move(name), std::move(v)});
}
inline Node store(std::string buf, ExprPtr index, ExprPtr v) {
  return stmt(node::Store{std::move(buf), std::move(index), std::move(v)});
}
inline Node if_(ExprPtr c, Body then_body, Body otherwise = {}) {
  return stmt(node::If{std::move(c), std::move(then_body), std::move(otherwise)});
}
inline Node loop(std::string v, ExprPtr from, ExprPtr to, Body body) {
  return stmt(node::Loop{std::move(v), std::move(from), std::move(to), std::move(body)});
}
inline Node ret() {
  return stmt(node::Return{});
}
inline Node block(Body body) {
  return stmt(node::Block{std::move(body)});
}
inline Node barrier() {
  return stmt(node::Barrier{});
}

/// A storage (or uniform) buffer at a binding slot; count 0 = sized by the host.
inline BufferDecl storage(std::string name, uint32_t binding, BufferAccess access,
                          DataType element = DataType::U32, uint32_t count = 0) {
  return BufferDecl{std::move(name), binding, access, element, count, {}};
}
/// A workgroup-shared array of `count` elements (no binding slot).
inline BufferDecl workgroup(std::string name, DataType element, uint32_t count) {
  return BufferDecl{std::move(name), 0, BufferAccess::Workgroup, element, count, {}};
}

}  // namespace vyre::build
