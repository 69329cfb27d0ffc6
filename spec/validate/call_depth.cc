#include "spec/validate/call_depth.h"

#include <algorithm>
#include <unordered_set>

#include "spec/validate/operands.h"

namespace vyre {

std::vector<const OpSpec*> CallDepths::callees(const OpSpec& op) const {
  std::vector<const OpSpec*> out;
  std::unordered_set<const Expr*> seen;
  std::vector<const Expr*> pending;
  if (op.composition != nullptr) pending.push_back(op.composition.get());
  while (!pending.empty()) {
    const Expr* e = pending.back();
    pending.pop_back();
    if (!seen.insert(e).second) continue;
    if (const auto* c = e->as<expr::Call>()) {
      const OpSpec* callee = ops_.find(c->op_id);
      if (callee != nullptr && std::find(out.begin(), out.end(), callee) == out.end()) {
        out.push_back(callee);
      }
    }
    for (size_t i = 0; i < operand_count(*e); ++i) {
      if (const ExprPtr& child = operand(*e, i)) pending.push_back(child.get());
    }
  }
  return out;
}

uint32_t CallDepths::of(const OpSpec& root) {
  if (const auto it = known_.find(&root); it != known_.end() && it->second.state == State::Done) {
    return it->second.depth;
  }
  struct Frame {
    const OpSpec* op;
    std::vector<const OpSpec*> callees;
    size_t next = 0;
    uint32_t deepest_callee = 0;
  };
  std::vector<Frame> stack;
  known_[&root] = {State::InProgress, 0};
  stack.push_back({&root, callees(root)});
  uint32_t result = 0;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.callees.size()) {
      const OpSpec* callee = top.callees[top.next++];
      const auto it = known_.find(callee);
      if (it == known_.end()) {
        known_[callee] = {State::InProgress, 0};
        stack.push_back({callee, callees(*callee)});
      } else {
        // A callee still in progress is on the current path: a cycle.
        const uint32_t depth = it->second.state == State::Done ? it->second.depth : kTooDeep;
        top.deepest_callee = std::max(top.deepest_callee, depth);
      }
      continue;
    }
    const uint32_t depth = std::min(top.deepest_callee + 1, kTooDeep);
    known_[top.op] = {State::Done, depth};
    stack.pop_back();
    if (stack.empty()) {
      result = depth;
    } else {
      stack.back().deepest_callee = std::max(stack.back().deepest_callee, depth);
    }
  }
  return result;
}

}  // namespace vyre
