// The program's buffers in a kernel language (OpenCL C, CUDA C): kernel
// parameters, workgroup arrays, and the bounds-checked statements that
// replace every direct access, so each access obeys S5 (out of bounds: load
// zero, store nothing, atomic 0) with no reliance on the device's robustness.
// What differs between the languages is data: the Dialect and a
// KernelSpelling.
#pragma once

#include <string>
#include <string_view>

#include "backends/clike/buffer_accessor.h"
#include "backends/clike/dialect.h"
#include "backends/clike/entry_interface.h"
#include "spec/ir/op_registry.h"
#include "spec/support/result.h"

namespace vyre::clike {

/// How a kernel language declares a kernel's buffers. Pointer patterns take
/// the element's memory type as $a.
struct KernelSpelling {
  std::string_view uniform_pointer;     ///< "__constant $a*"
  std::string_view read_only_pointer;   ///< "__global const $a*"
  std::string_view read_write_pointer;  ///< "__global $a*" (also the control buffer's)
  std::string_view workgroup_array;     ///< Declaration prefix of a workgroup array: "__local ".
  /// The invocation's index within its workgroup, from the strides of axis z
  /// ($a, x * y invocations) and of axis y ($b, x invocations), as u32 literals.
  std::string_view local_index;
};

/// The buffers of one program and the kernel source that declares and
/// reaches them: one pointer per bound buffer, one u32 element count per
/// bound buffer ("n0"), then the control buffer when the program loops.
class KernelBuffers : public BufferAccessor {
 public:
  /// `dialect` and `spelling` must outlive the accessor.
  KernelBuffers(const Program& program, const EntryInterface& iface, const Dialect& dialect,
                const KernelSpelling& spelling);

  std::string load(Code& code, const Access& a) override;
  void store(Code& code, const Access& a) override;
  std::string atomic(Code& code, const Access& a) override;
  std::string budget_exhausted() const override;
  std::string loop_cut_short() const override;

  /// The kernel's parameter list (without parentheses), in EntryInterface
  /// order, one per line with a comment, ending in a newline ("void" when empty).
  std::string parameters() const;
  /// Kernel-scope statements: the workgroup arrays, zeroed by a strided loop
  /// over the workgroup, then a barrier; empty when the program has none.
  std::string workgroup_memory() const;

 private:
  std::string memory_type(DataType t) const;
  std::string pointer_type(const BoundBuffer& b) const;

  const EntryInterface& iface_;
  const Dialect& d_;
  const KernelSpelling& spelling_;
};

/// The whole kernel of `program` for `iface`: a comment naming the backend
/// folder (`backend`: "opencl") that lowered it, the dialect's prelude,
/// `head` (what precedes the parameter list: qualifiers, attributes and the
/// kernel's name), the KernelBuffers parameters, workgroup arrays and
/// emit_body's statements. An Error names a node the emitter cannot lower.
Result<std::string> kernel_source(const Program& program, const EntryInterface& iface,
                                  const Dialect& dialect, const KernelSpelling& spelling,
                                  std::string_view backend, std::string_view head,
                                  const OpRegistry& ops);

}  // namespace vyre::clike
