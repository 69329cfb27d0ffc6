// The OpenCL C kernel around the shared emitter's body: the prelude, the
// kernel's signature, its __local arrays, then the body.
#include "backends/opencl/opencl_c_emitter.h"

#include "backends/clike/kernel_buffers.h"
#include "backends/opencl/opencl_c_dialect.h"

namespace vyre::opencl {

Result<std::string> emit_opencl_c(const Program& program, const KernelInterface& iface,
                                  const OpRegistry& ops) {
  // Exactly the workgroup size the program declares, so that no device picks another.
  std::string head = "__kernel __attribute__((reqd_work_group_size(";
  for (size_t axis = 0; axis < 3; ++axis) {
    head += std::to_string(iface.workgroup_size[axis]) + (axis < 2 ? ", " : ")))\n");
  }
  head += "void " + std::string(kKernelName);
  return clike::kernel_source(program, iface, opencl_c_dialect(), opencl_c_kernel(), "opencl", head,
                              ops);
}

}  // namespace vyre::opencl
