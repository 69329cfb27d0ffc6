// V016 V017 V020 V034: every Call names a registered, inlinable op, passes
// its arity of arguments, and does not nest calls past kMaxCallDepth through
// compositions. An unknown or non-inlinable op gets that one diagnostic only.
#include <string>

#include "spec/validate/call_depth.h"
#include "spec/validate/rule_families.h"
#include "spec/validate/walk.h"

namespace vyre {
namespace {

/// "1 argument", "2 arguments": V034's counts read as English.
std::string argument_count(size_t n) {
  return std::to_string(n) + (n == 1 ? " argument" : " arguments");
}

}  // namespace

void check_calls(const ValidationContext& context, DiagnosticSink& sink) {
  CallDepths depths(context.ops);
  for_each_expr(context.program.entry, [&](const Expr& e) {
    const auto* c = e.as<expr::Call>();
    if (c == nullptr) return;
    const OpSpec* op = context.ops.find(c->op_id);
    if (op == nullptr) {
      sink.report(e, MessageId::UnknownOp, {{"op_id", c->op_id}});
      return;
    }
    if (!op->inlinable) {
      sink.report(e, MessageId::NonInlinableCall, {{"op_id", c->op_id}});
      return;
    }
    if (c->args.size() != op->arity) {
      sink.report(e, MessageId::CallArity,
                  {{"op_id", c->op_id},
                   {"passed", argument_count(c->args.size())},
                   {"arity", argument_count(op->arity)}});
    }
    if (depths.of(*op) > kMaxCallDepth) sink.report(e, MessageId::CallDepthExceeded);
  });
}

}  // namespace vyre
