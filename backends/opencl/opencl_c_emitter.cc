// The OpenCL C kernel around the shared emitter's body: the prelude, the
// kernel's signature, its __local arrays, then the body.
#include "backends/opencl/opencl_c_emitter.h"

#include "backends/clike/emitter.h"
#include "backends/opencl/opencl_c_buffers.h"
#include "backends/opencl/opencl_c_dialect.h"

namespace vyre::opencl {

Result<std::string> emit_opencl_c(const Program& program, const KernelInterface& iface,
                                  const OpRegistry& ops) {
  ClBuffers buffers(program, iface);
  Result<std::string> body =
      clike::emit_body(program, opencl_c_dialect(), buffers, iface.loop_iteration_budget, ops);
  if (!body.ok()) return body.error();
  const auto& size = iface.workgroup_size;
  std::string out = "// Lowered from a vyre 0.4.0 program (backends/opencl).\n";
  out += opencl_c_dialect().prelude;
  out += "__kernel __attribute__((reqd_work_group_size(" + std::to_string(size[0]) + ", " +
         std::to_string(size[1]) + ", " + std::to_string(size[2]) + ")))\nvoid " +
         std::string(kKernelName) + "(" + buffers.parameters() + ") {\n";
  out += buffers.workgroup_memory();
  out += *body;
  out += "}\n";
  return out;
}

}  // namespace vyre::opencl
