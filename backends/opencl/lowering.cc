// Program -> validated -> OpenCL C.
#include "backends/opencl/lowering.h"

#include "backends/clike/buffer_accessor.h"
#include "backends/clike/validation_error.h"
#include "backends/opencl/opencl_c_emitter.h"
#include "spec/validate/validator.h"

namespace vyre::opencl {
namespace {

/// Largest workgroup size per axis and __local array length a kernel can write.
constexpr uint32_t kMaxKernelInt = 0x7FFFFFFF;

}  // namespace

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
  constexpr const char* kAxes[] = {"x", "y", "z"};
  const std::string limit = " is past " + std::to_string(kMaxKernelInt) +
                            ", the largest int an OpenCL C kernel can write there, so no "
                            "OpenCL kernel can express this program";
  for (size_t axis = 0; axis < 3; ++axis) {
    if (program.workgroup_size[axis] > kMaxKernelInt) {
      return "the workgroup size on " + std::string(kAxes[axis]) + " " +
             std::to_string(program.workgroup_size[axis]) + limit;
    }
  }
  for (const BufferDecl& decl : program.buffers) {
    if (!takes_binding(decl.access) && decl.count > kMaxKernelInt) {
      return "workgroup buffer `" + clike::printable(decl.name) + "` has " +
             std::to_string(decl.count) + " elements, which" + limit;
    }
  }
  return std::nullopt;
}

Status lowering_failure_status(const Program& program) {
  return validate(program).empty() && beyond_opencl_c_limits(program) ? Status::NotSupported
                                                                      : Status::CompileError;
}

}  // namespace vyre::opencl
