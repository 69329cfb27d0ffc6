// V010: a Barrier must be reached by every invocation of its workgroup that
// has not returned, and none may have returned (SEMANTICS.md S6). So a
// Barrier is divergent when some enclosing If or Loop diverges (uniformity.h),
// or when it may run after a Return under divergent control: later in an
// enclosing body, or anywhere in an enclosing loop, whose next iteration
// follows the Return.
#include "spec/validate/rule_families.h"
#include "spec/validate/uniformity.h"

namespace vyre {
namespace {

class BarrierChecker {
 public:
  BarrierChecker(const UniformityAnalysis& analysis, DiagnosticSink& sink)
      : analysis_(analysis), sink_(sink) {}

  /// Walks `body`; `divergent` says whether its control diverges, `returned`
  /// whether part of the workgroup may already have returned. Reports only
  /// when `report` is set. Returns whether part of the workgroup may have
  /// returned by the end of the body.
  bool walk(const Body& body, bool divergent, bool returned, bool report) {
    for (const Node& n : body) {
      if (n.as<node::Barrier>() != nullptr) {
        if (report && (divergent || returned)) sink_.report(n, MessageId::DivergentBarrier);
      } else if (n.as<node::Return>() != nullptr) {
        returned = returned || divergent;
      } else if (const auto* x = n.as<node::If>()) {
        const bool inner = analysis_.diverges(n);
        const bool after_then = walk(x->then_body, inner, returned, report);
        const bool after_else = walk(x->otherwise, inner, returned, report);
        returned = after_then || after_else;
      } else if (const auto* x = n.as<node::Loop>()) {
        const bool inner = analysis_.diverges(n);
        // A first pass finds whether an iteration may return part of the
        // workgroup; if so, every later iteration runs after that Return.
        const bool after_iteration = walk(x->body, inner, returned, false);
        if (report) walk(x->body, inner, after_iteration, true);
        returned = after_iteration;
      } else if (const auto* x = n.as<node::Block>()) {
        returned = walk(x->body, divergent, returned, report);
      }
    }
    return returned;
  }

 private:
  const UniformityAnalysis& analysis_;
  DiagnosticSink& sink_;
};

}  // namespace

void check_barrier_uniformity(const ValidationContext& context, DiagnosticSink& sink) {
  const UniformityAnalysis analysis(context.program, context.buffers);
  BarrierChecker(analysis, sink).walk(context.program.entry, false, false, true);
}

}  // namespace vyre
