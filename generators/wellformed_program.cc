#include "generators/wellformed_program.h"

#include "generators/wellformed_context.h"

namespace vyre {

std::vector<uint32_t> edge_values() {
  std::vector<uint32_t> values = {0, 1, 2, 31, 32, 33, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  for (int32_t negative : {-2, -31, -32, -33}) values.push_back(static_cast<uint32_t>(negative));
  return values;
}

const char* name_of(SizeClass size) {
  switch (size) {
    case SizeClass::Small:
      return "small";
    case SizeClass::Deep:
      return "deep";
    case SizeClass::Wide:
      return "wide";
    case SizeClass::LargeGrid:
      return "large_grid";
  }
  return "small";
}

GeneratedCase generate_wellformed(uint64_t seed, const GeneratorOptions& options) {
  wellformed::Plan plan(seed);
  plan.options = options;
  wellformed::plan_layout(plan);
  Body entry = wellformed::gen_entry(plan);
  GeneratedCase out;
  out.test_case.name = "wellformed-" + std::to_string(seed);
  for (const wellformed::BufferPlan& b : plan.buffers)
    out.test_case.program.buffers.push_back(b.decl);
  out.test_case.program.workgroup_size = plan.workgroup_size;
  out.test_case.program.entry = std::move(entry);
  out.test_case.grid.workgroups = plan.grid;
  out.test_case.inputs = wellformed::gen_inputs(plan);
  out.features = plan.features;
  out.size = plan.size;
  out.shapes = std::move(plan.shapes);
  return out;
}

TestCase generate_wellformed_case(uint64_t seed, const GeneratorOptions& options) {
  return generate_wellformed(seed, options).test_case;
}

}  // namespace vyre
