// Lowering of a vyre Program to GLSL 450 compute source: the shared C-like
// emitter (backends/clike/emitter.h) in the GLSL dialect, with the buffers
// reached through accessor functions (glsl_buffers.h).
#pragma once

#include <string>

#include "backends/vulkan/shader_interface.h"
#include "spec/ir/op_registry.h"
#include "spec/support/result.h"

namespace vyre::vulkan {

/// GLSL source of `program` with the layout `iface` describes. The program
/// must be valid; a node the emitter cannot lower (validation rejects every
/// such node) is an Error naming it.
Result<std::string> emit_glsl(const Program& program, const ShaderInterface& iface,
                              const OpRegistry& ops = OpRegistry::standard());

}  // namespace vyre::vulkan
