// Lowering of a vyre Program to one OpenCL C 1.2 kernel: the shared C-like
// emitter (backends/clike/emitter.h) in the OpenCL C dialect, with the buffers
// reached through guarded statements (clike/kernel_buffers.h).
#pragma once

#include <string>

#include "backends/opencl/kernel_interface.h"
#include "spec/ir/op_registry.h"
#include "spec/support/result.h"

namespace vyre::opencl {

/// Name of the kernel every lowered program defines.
inline constexpr const char* kKernelName = "vyre_main";

/// OpenCL C source of `program` with the arguments `iface` describes. The
/// program must be valid; a node the emitter cannot lower (validation rejects
/// every such node) is an Error naming it.
Result<std::string> emit_opencl_c(const Program& program, const KernelInterface& iface,
                                  const OpRegistry& ops = OpRegistry::standard());

}  // namespace vyre::opencl
