// The GLSL shader around the shared emitter's body: version, workgroup size,
// the buffers' declarations and accessors, then main.
#include "backends/vulkan/glsl_emitter.h"

#include "backends/clike/emitter.h"
#include "backends/vulkan/glsl_buffers.h"
#include "backends/vulkan/glsl_dialect.h"

namespace vyre::vulkan {

Result<std::string> emit_glsl(const Program& program, const ShaderInterface& iface,
                              const OpRegistry& ops) {
  GlslBuffers buffers(program, iface);
  Result<std::string> body =
      clike::emit_body(program, glsl_dialect(), buffers, iface.loop_iteration_budget, ops);
  if (!body.ok()) return body.error();
  const auto& size = iface.workgroup_size;
  const std::string layout = "layout(local_size_x = " + std::to_string(size[0]) +
                             ", local_size_y = " + std::to_string(size[1]) +
                             ", local_size_z = " + std::to_string(size[2]) + ") in;\n";
  return "#version 450\n// Lowered from a vyre 0.4.0 program (backends/vulkan).\n" + layout +
         std::string(glsl_dialect().prelude) + buffers.declarations() + buffers.accessors() +
         "void main() {\n" + buffers.zero_workgroup_memory() + *body + "}\n";
}

}  // namespace vyre::vulkan
