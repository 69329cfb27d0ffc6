// V040: every operand slot a node requires holds an expression. Programs
// from the text format always do; programs built in code may not, and every
// later family then treats the missing operand as already reported.
#include <string>

#include "spec/validate/operands.h"
#include "spec/validate/rule_families.h"
#include "spec/validate/walk.h"

namespace vyre {

void check_operands_present(const ValidationContext& context, DiagnosticSink& sink) {
  for_each_node(context.program.entry, [&sink](const Node& n) {
    for (size_t i = 0; i < operand_count(n); ++i) {
      if (operand(n, i) == nullptr) {
        sink.report(
            n, MessageId::MissingOperand,
            {{"node", std::string(kind_name(n))}, {"operand", std::string(operand_name(n, i))}});
      }
    }
  });
  for_each_expr(context.program.entry, [&sink](const Expr& e) {
    for (size_t i = 0; i < operand_count(e); ++i) {
      if (operand(e, i) == nullptr && !operand_is_optional(e, i)) {
        sink.report(
            e, MessageId::MissingOperand,
            {{"node", std::string(kind_name(e))}, {"operand", std::string(operand_name(e, i))}});
      }
    }
  });
}

}  // namespace vyre
