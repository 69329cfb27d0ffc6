// The driver: runs the rule families in order and returns what they found in
// program order. Structural families first; check_limits next, then the tree
// families, which recurse, on any tree check_limits measured as walkable.
#include "spec/validate/validator.h"

#include "spec/validate/rule_families.h"

namespace vyre {
namespace {

constexpr RuleFamily kStructuralFamilies[] = {check_buffer_decls, check_workgroup_size};

constexpr RuleFamily kTreeFamilies[] = {
    check_operands_present,   check_buffer_access, check_builtin_ids, check_scoping,
    check_reachability,       check_atomic_shape,  check_calls,       check_types,
    check_barrier_uniformity,
};

}  // namespace

std::vector<Diagnostic> validate(const Program& program, const OpRegistry& ops) {
  const BufferTable buffers(program);
  const ValidationContext context{program, ops, buffers};
  ProgramIndex index(program);
  DiagnosticSink sink(index);
  for (RuleFamily family : kStructuralFamilies) family(context, sink);
  // Past a limit the tree families still run while the tree is small and
  // shallow enough to recurse over, so errors independent of the limit (an
  // undeclared variable beside a 100-deep nesting) are still collected.
  if (check_limits(context, sink).walkable()) {
    index.number_tree();
    for (RuleFamily family : kTreeFamilies) family(context, sink);
  }
  return sink.take_in_program_order();
}

}  // namespace vyre
