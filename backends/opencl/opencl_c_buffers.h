// The program's buffers in OpenCL C: kernel parameters, __local arrays, and
// the bounds-checked statements that replace every direct access, so each
// access obeys S5 (out of bounds: load zero, store nothing, atomic 0) with no
// reliance on the device's robustness.
#pragma once

#include <string>

#include "backends/clike/buffer_accessor.h"
#include "backends/opencl/kernel_interface.h"

namespace vyre::opencl {

/// The buffers of one program and the OpenCL C that declares and reaches them.
class ClBuffers : public clike::BufferAccessor {
 public:
  ClBuffers(const Program& program, const KernelInterface& iface);

  std::string load(clike::Code& code, const clike::Access& a) override;
  void store(clike::Code& code, const clike::Access& a) override;
  std::string atomic(clike::Code& code, const clike::Access& a) override;
  std::string budget_exhausted() const override;
  std::string loop_cut_short() const override;

  /// The kernel's parameter list (without parentheses), in KernelInterface order,
  /// one per line with a comment, ending in a newline ("void" when empty).
  std::string parameters() const;
  /// Kernel-scope statements: the __local arrays, zeroed by a strided loop
  /// over the workgroup, then a barrier; empty when the program has none.
  std::string workgroup_memory() const;

 private:
  const KernelInterface& iface_;
};

}  // namespace vyre::opencl
