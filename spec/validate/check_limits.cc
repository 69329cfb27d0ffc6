// V018 V019 V030: the size and depth limits. Everything here uses explicit
// stacks, never recursion, so that a program nested 10^5 deep or holding 10^6
// nodes is measured without overflowing the stack; the recursive families run
// only on a tree whose measure says they can (TreeSize::walkable).
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "spec/validate/operands.h"
#include "spec/validate/rule_families.h"

namespace vyre {
namespace {

/// Sizes saturate here: a DAG of shared subexpressions can stand for a tree
/// of 2^100 nodes, which must count as "too many", not wrap around.
constexpr uint64_t kSaturated = uint64_t{1} << 62;

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return std::min(a + std::min(b, kSaturated), kSaturated);
}

/// Size and depth of an expression tree, a shared subexpression counted once per use.
struct TreeMeasure {
  uint64_t size = 0;
  uint64_t depth = 0;
};

class ExpressionMeasurer {
 public:
  TreeMeasure measure(const ExprPtr& root) {
    if (root == nullptr) return {};
    if (const TreeMeasure* known = remembered(root)) return *known;
    TreeMeasure result;
    stack_.push_back(Frame{root.get(), root.use_count() > 1});
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      if (top.next < operand_count(*top.expr)) {
        const ExprPtr& child = operand(*top.expr, top.next++);
        if (child == nullptr) continue;
        if (const TreeMeasure* known = remembered(child)) {
          top.fold(*known);
          continue;
        }
        stack_.push_back(Frame{child.get(), child.use_count() > 1});
        continue;
      }
      const TreeMeasure done{top.size, top.deepest_operand + 1};
      // Only shared nodes can be met twice, so only they are remembered.
      if (top.shared) memo_[top.expr] = done;
      stack_.pop_back();
      if (stack_.empty()) {
        result = done;
      } else {
        stack_.back().fold(done);
      }
    }
    return result;
  }

 private:
  struct Frame {
    const Expr* expr;
    bool shared;
    size_t next = 0;
    uint64_t size = 1;
    uint64_t deepest_operand = 0;

    void fold(const TreeMeasure& operand) {
      size = saturating_add(size, operand.size);
      deepest_operand = std::max(deepest_operand, operand.depth);
    }
  };

  const TreeMeasure* remembered(const ExprPtr& e) const {
    if (e.use_count() <= 1) return nullptr;
    const auto it = memo_.find(e.get());
    return it == memo_.end() ? nullptr : &it->second;
  }

  std::vector<Frame> stack_;
  std::unordered_map<const Expr*, TreeMeasure> memo_;
};

}  // namespace

TreeSize check_limits(const ValidationContext& context, DiagnosticSink& sink) {
  struct BodyFrame {
    const Body* body;
    size_t next;
    uint64_t depth;  // nesting depth of the statements of this body
  };
  ExpressionMeasurer measurer;
  uint64_t node_count = 0;
  uint64_t deepest_nesting = 0;
  // Enclosing bodies plus expression depth at the deepest point, counted as
  // the parser counts nesting against kMaxTextNesting.
  uint64_t deepest_walk = 0;
  const Node* first_too_deep = nullptr;
  const Node* crosses_node_limit = nullptr;  // the statement whose nodes pass V019's limit
  std::vector<BodyFrame> stack = {{&context.program.entry, 0, 0}};
  while (!stack.empty()) {
    BodyFrame& top = stack.back();
    if (top.next == top.body->size()) {
      stack.pop_back();
      continue;
    }
    const Node& n = (*top.body)[top.next++];
    const uint64_t depth = top.depth;
    node_count = saturating_add(node_count, 1);
    deepest_walk = std::max(deepest_walk, depth);
    for (size_t i = 0; i < operand_count(n); ++i) {
      const ExprPtr& root = operand(n, i);
      const TreeMeasure m = measurer.measure(root);
      node_count = saturating_add(node_count, m.size);
      deepest_walk = std::max(deepest_walk, saturating_add(depth, m.depth));
      if (m.depth > kMaxExprDepth) {
        sink.report(*root, MessageId::ExpressionDepthExceeded,
                    {{"depth", std::to_string(m.depth)}});
      }
    }
    if (node_count > kMaxNodeCount && crosses_node_limit == nullptr) crosses_node_limit = &n;
    if (body_count(n) == 0) continue;
    deepest_nesting = std::max(deepest_nesting, depth + 1);
    if (depth + 1 > kMaxNestingDepth && first_too_deep == nullptr) first_too_deep = &n;
    // Pushed last to first so that the first body is walked first.
    for (size_t i = body_count(n); i-- > 0;) stack.push_back({&body(n, i), 0, depth + 1});
  }
  if (first_too_deep != nullptr) {
    sink.report(*first_too_deep, MessageId::NestingDepthExceeded,
                {{"depth", std::to_string(deepest_nesting)}});
  }
  if (crosses_node_limit != nullptr) {
    sink.report_program(MessageId::NodeCountExceeded, crosses_node_limit);
  }
  return TreeSize{node_count, deepest_walk};
}

}  // namespace vyre
