#include "spec/validate/uniformity.h"

#include "spec/validate/walk.h"

namespace vyre {
namespace {

/// Fact 0: the control of the entry body, uniform by definition.
constexpr uint32_t kEntryControl = 0;

bool is_varying_source(const Expr& e, const BufferTable& buffers) {
  if (e.as<expr::InvocationId>() != nullptr || e.as<expr::LocalId>() != nullptr ||
      e.as<expr::Atomic>() != nullptr) {
    return true;
  }
  if (const auto* load = e.as<expr::Load>()) {
    // Other invocations may write these buffers; an unknown buffer (V004) is
    // taken as uniform so that it adds no diagnostic of its own.
    const BufferDecl* b = buffers.find(load->buffer);
    return b != nullptr &&
           (b->access == BufferAccess::ReadWrite || b->access == BufferAccess::Workgroup);
  }
  return false;
}

}  // namespace

UniformityAnalysis::UniformityAnalysis(const Program& program, const BufferTable& buffers)
    : buffers_(buffers), facts_(1) {
  walk(program.entry, kEntryControl);
  propagate();
}

bool UniformityAnalysis::diverges(const Node& construct) const {
  const auto it = control_of_.find(&construct);
  return it != control_of_.end() && facts_[it->second].varying;
}

uint32_t UniformityAnalysis::new_fact(uint32_t depends_on) {
  const auto id = static_cast<uint32_t>(facts_.size());
  facts_.emplace_back();
  facts_[depends_on].dependents.push_back(id);
  return id;
}

void UniformityAnalysis::feed(const ExprPtr& e, uint32_t into) {
  for_each_expr(e, [this, into](const Expr& x) {
    if (is_varying_source(x, buffers_)) facts_[into].varying = true;
    if (const auto* v = x.as<expr::Var>()) {
      // An undeclared variable (V006) adds nothing.
      if (const uint32_t* binding = names_.find(v->name)) {
        facts_[*binding].dependents.push_back(into);
      }
    }
  });
}

void UniformityAnalysis::walk_scope(const Body& body, uint32_t control) {
  names_.open();
  walk(body, control);
  names_.close();
}

void UniformityAnalysis::walk(const Body& body, uint32_t control) {
  for (const Node& n : body) {
    if (const auto* x = n.as<node::Let>()) {
      const uint32_t binding = new_fact(control);
      feed(x->value, binding);
      names_.declare(x->name, binding);
    } else if (const auto* x = n.as<node::Assign>()) {
      if (const uint32_t* binding = names_.find(x->name)) {
        facts_[control].dependents.push_back(*binding);
        feed(x->value, *binding);
      }
    } else if (const auto* x = n.as<node::If>()) {
      const uint32_t inner = new_fact(control);
      feed(x->cond, inner);
      control_of_[&n] = inner;
      walk_scope(x->then_body, inner);
      walk_scope(x->otherwise, inner);
    } else if (const auto* x = n.as<node::Loop>()) {
      const uint32_t inner = new_fact(control);
      feed(x->from, inner);
      feed(x->to, inner);
      control_of_[&n] = inner;
      names_.open();
      names_.declare(x->var, new_fact(inner));
      walk(x->body, inner);
      names_.close();
    } else if (const auto* x = n.as<node::Block>()) {
      walk_scope(x->body, control);
    }
  }
}

void UniformityAnalysis::propagate() {
  std::vector<uint32_t> pending;
  for (uint32_t id = 0; id < facts_.size(); ++id) {
    if (facts_[id].varying) pending.push_back(id);
  }
  while (!pending.empty()) {
    const uint32_t id = pending.back();
    pending.pop_back();
    for (const uint32_t dependent : facts_[id].dependents) {
      if (!facts_[dependent].varying) {
        facts_[dependent].varying = true;
        pending.push_back(dependent);
      }
    }
  }
}

}  // namespace vyre
