// V029: CompareExchange carries `expected`, and no other atomic does
// (pinned spec section 3).
#include <string>

#include "spec/validate/rule_families.h"
#include "spec/validate/walk.h"

namespace vyre {

void check_atomic_shape(const ValidationContext& context, DiagnosticSink& sink) {
  for_each_expr(context.program.entry, [&sink](const Expr& e) {
    const auto* a = e.as<expr::Atomic>();
    if (a == nullptr) return;
    const bool is_compare_exchange = a->op == AtomicOp::CompareExchange;
    if (is_compare_exchange && a->expected == nullptr) {
      sink.report(e, MessageId::CompareExchangeWithoutExpected, {{"name", a->buffer}});
    } else if (!is_compare_exchange && a->expected != nullptr) {
      sink.report(e, MessageId::ExpectedOnOtherAtomic,
                  {{"op", std::string(name_of(a->op))}, {"name", a->buffer}});
    }
  });
}

}  // namespace vyre
