// V007: InvocationId, WorkgroupId and LocalId name axis 0, 1 or 2.
#include <string>

#include "spec/validate/rule_families.h"
#include "spec/validate/walk.h"

namespace vyre {
namespace {

constexpr uint32_t kAxisCount = 3;

/// The axis of an id expression, or nullptr for other kinds.
const uint32_t* axis_of(const Expr& e) {
  if (const auto* x = e.as<expr::InvocationId>()) return &x->axis;
  if (const auto* x = e.as<expr::WorkgroupId>()) return &x->axis;
  if (const auto* x = e.as<expr::LocalId>()) return &x->axis;
  return nullptr;
}

}  // namespace

void check_builtin_ids(const ValidationContext& context, DiagnosticSink& sink) {
  for_each_expr(context.program.entry, [&sink](const Expr& e) {
    const uint32_t* axis = axis_of(e);
    if (axis != nullptr && *axis >= kAxisCount) {
      sink.report(e, MessageId::AxisOutOfRange, {{"axis", std::to_string(*axis)}});
    }
  });
}

}  // namespace vyre
