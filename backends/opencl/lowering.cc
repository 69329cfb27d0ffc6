// Program -> validated -> OpenCL C.
#include "backends/opencl/lowering.h"

#include "backends/clike/int_limits.h"
#include "backends/clike/validation_error.h"
#include "backends/opencl/opencl_c_emitter.h"
#include "spec/validate/validator.h"

namespace vyre::opencl {

Result<LoweredKernel> lower_program(const Program& program, uint32_t loop_iteration_budget) {
  if (std::optional<Error> invalid = clike::validation_error(program)) return *invalid;
  if (std::optional<std::string> beyond = beyond_opencl_c_limits(program)) return Error{*beyond};
  LoweredKernel lowered;
  lowered.iface = kernel_interface_of(program, loop_iteration_budget);
  Result<std::string> source = emit_opencl_c(program, lowered.iface);
  if (!source.ok()) return source.error();
  lowered.source = std::move(*source);
  return lowered;
}

std::optional<std::string> beyond_opencl_c_limits(const Program& program) {
  return clike::beyond_int_limits(program, "an OpenCL C kernel", "OpenCL kernel");
}

Status lowering_failure_status(const Program& program) {
  return validate(program).empty() && beyond_opencl_c_limits(program) ? Status::NotSupported
                                                                      : Status::CompileError;
}

}  // namespace vyre::opencl
