// V003: every workgroup dimension is at least one.
#include <string>

#include "spec/validate/rule_families.h"

namespace vyre {

void check_workgroup_size(const ValidationContext& context, DiagnosticSink& sink) {
  for (size_t axis = 0; axis < context.program.workgroup_size.size(); ++axis) {
    if (context.program.workgroup_size[axis] == 0) {
      sink.report_workgroup_size(MessageId::WorkgroupSizeZero, {{"axis", std::to_string(axis)}});
    }
  }
}

}  // namespace vyre
