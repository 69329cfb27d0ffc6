#include "spec/validate/test_support.h"

#include <utility>

namespace vyre::testing {

using namespace vyre::build;

Program program_of(std::vector<BufferDecl> buffers, Body entry,
                   std::array<uint32_t, 3> workgroup_size) {
  Program p;
  p.buffers = std::move(buffers);
  p.workgroup_size = workgroup_size;
  p.entry = std::move(entry);
  return p;
}

std::vector<BufferDecl> in_out() {
  return {storage("in", 0, BufferAccess::ReadOnly), storage("out", 1, BufferAccess::ReadWrite)};
}

Program simple(Body entry) {
  return program_of(in_out(), std::move(entry));
}

ExprPtr value_of(DataType t) {
  switch (t) {
    case DataType::U32:
      return u32(7);
    case DataType::I32:
      return i32(-7);
    case DataType::Bool:
      return boolean(true);
    default:
      // U32 widens to U64, Vec2U32 and Vec4U32 (pinned spec section 4).
      return cast(t, u32(7));
  }
}

ExprPtr expression_of_size(uint64_t size) {
  // perfect[k] is a complete add-tree of 2^(k+1) - 1 nodes.
  std::vector<ExprPtr> perfect = {u32(1)};
  while ((uint64_t{4} << perfect.size()) - 1 <= size) {
    perfect.push_back(add(perfect.back(), perfect.back()));
  }
  // add(perfect[k], rest) has 2^(k+1) + |rest| nodes: peel the largest
  // perfect tree that leaves at least one node for `rest`, down to a leaf
  // (1 node) or a unary of a leaf (2 nodes).
  std::vector<const ExprPtr*> peeled;
  uint64_t rest = size;
  for (size_t k = perfect.size(); k-- > 0;) {
    while (rest > 2 && (uint64_t{2} << k) + 1 <= rest) {
      peeled.push_back(&perfect[k]);
      rest -= uint64_t{2} << k;
    }
  }
  ExprPtr e = rest == 1 ? u32(1) : unary(UnOp::BitNot, u32(1));
  for (size_t i = peeled.size(); i-- > 0;) e = add(*peeled[i], e);
  return e;
}

Body nested_blocks(size_t depth, Body innermost) {
  Body body = std::move(innermost);
  for (size_t i = 0; i < depth; ++i) {
    Body outer;
    outer.push_back(block(std::move(body)));
    body = std::move(outer);
  }
  return body;
}

void dismantle(Body body) {
  std::vector<Body> pending;
  pending.push_back(std::move(body));
  while (!pending.empty()) {
    Body current = std::move(pending.back());
    pending.pop_back();
    // Move every child body out before `current` is destroyed, so each
    // destructor sees only empty children.
    for (Node& n : current) {
      if (auto* x = std::get_if<node::Block>(&n.kind)) pending.push_back(std::move(x->body));
      if (auto* x = std::get_if<node::Loop>(&n.kind)) pending.push_back(std::move(x->body));
      if (auto* x = std::get_if<node::If>(&n.kind)) {
        pending.push_back(std::move(x->then_body));
        pending.push_back(std::move(x->otherwise));
      }
    }
  }
}

DeepExpression::DeepExpression(size_t depth) {
  nodes_.reserve(depth);
  nodes_.push_back(u32(1));
  while (nodes_.size() < depth) nodes_.push_back(unary(UnOp::BitNot, nodes_.back()));
}

DeepExpression::~DeepExpression() {
  // Root first: each node dies while its operand is still held here, so no
  // destructor recurses.
  while (!nodes_.empty()) nodes_.pop_back();
}

OpRegistry call_chain(size_t length) {
  OpRegistry ops;
  for (size_t i = 0; i < length; ++i) {
    const bool last = i + 1 == length;
    ExprPtr body = last ? var("a") : call("chain." + std::to_string(i + 1), {var("a")});
    ops.add(OpSpec{"chain." + std::to_string(i), 1, true, std::move(body), {}, "test chain link"});
  }
  return ops;
}

std::vector<RuleId> rules_of(const std::vector<Diagnostic>& diagnostics) {
  std::vector<RuleId> out;
  for (const Diagnostic& d : diagnostics) out.push_back(d.rule);
  return out;
}

}  // namespace vyre::testing
