// The OpenCL C kernel around the shared emitter's body: the prelude, the
// kernel's signature, its __local arrays, then the body.
#include "backends/opencl/opencl_c_emitter.h"

#include "backends/clike/emitter.h"
#include "backends/opencl/opencl_c_dialect.h"

namespace vyre::opencl {

Result<std::string> emit_opencl_c(const Program& program, const KernelInterface& iface,
                                  const OpRegistry& ops) {
  clike::KernelBuffers buffers(program, iface, opencl_c_dialect(), opencl_c_kernel());
  Result<std::string> body =
      clike::emit_body(program, opencl_c_dialect(), buffers, iface.loop_iteration_budget, ops);
  if (!body.ok()) return body.error();
  // Exactly the workgroup size the program declares, so that no device picks another.
  std::string attribute = "__kernel __attribute__((reqd_work_group_size(";
  for (size_t axis = 0; axis < 3; ++axis) {
    attribute += std::to_string(iface.workgroup_size[axis]) + (axis < 2 ? ", " : ")))\n");
  }
  return "// Lowered from a vyre 0.4.0 program (backends/opencl).\n" +
         std::string(opencl_c_dialect().prelude) + attribute + "void " + kKernelName + "(" +
         buffers.parameters() + ") {\n" + buffers.workgroup_memory() + *body + "}\n";
}

}  // namespace vyre::opencl
