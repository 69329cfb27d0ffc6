// Program -> validated -> OpenCL C.
#include "backends/opencl/lowering.h"

#include "backends/clike/int_limits.h"
#include "backends/opencl/opencl_c_emitter.h"

namespace vyre::opencl {

Result<LoweredKernel> lower_program(const Program& program, uint32_t loop_iteration_budget) {
  return clike::lower_to_source<KernelInterface>(program, loop_iteration_budget,
                                                 beyond_opencl_c_limits, emit_opencl_c);
}

std::optional<std::string> beyond_opencl_c_limits(const Program& program) {
  return clike::beyond_int_limits(program, "an OpenCL C kernel", "OpenCL kernel");
}

}  // namespace vyre::opencl
