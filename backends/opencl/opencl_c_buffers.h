// The program's buffers in OpenCL C: kernel parameters, __local arrays, and
// the bounds-checked statements that replace every direct access, so each
// access obeys S5 (out of bounds: load zero, store nothing, atomic 0) with no
// reliance on the device's robustness.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/opencl/kernel_interface.h"

namespace vyre::opencl {

/// How lowered code reaches one program buffer.
struct ClBuffer {
  const BufferDecl* decl = nullptr;
  std::string ident;  ///< "b0" (a kernel parameter) or "w0" (a __local array).
  std::string count;  ///< Element count as a uint expression ("n0" or "16u").
  bool bound = false;
};

/// The buffers of one program and the OpenCL C that declares and reaches them.
class ClBuffers {
 public:
  ClBuffers(const Program& program, const KernelInterface& iface);

  /// The buffer called `name`, or nullptr.
  const ClBuffer* find(std::string_view name) const;

  /// The kernel's parameter list (without parentheses), in KernelInterface order,
  /// one per line with a comment, ending in a newline ("void" when empty).
  std::string parameters() const;
  /// Kernel-scope statements: the __local arrays, zeroed by a strided loop
  /// over the workgroup, then a barrier; empty when the program has none.
  std::string workgroup_memory() const;

  /// Statements giving `target` (declared by the caller, holding the zero of
  /// the element type) the element at `index` when it is in bounds.
  std::string load(const ClBuffer& b, const std::string& target, const std::string& index) const;
  /// A statement storing `value` at `index` when it is in bounds.
  std::string store(const ClBuffer& b, const std::string& index, const std::string& value) const;
  /// A statement giving `target` (holding 0u) the result of the atomic when
  /// `index` is in bounds; `expected` is empty except for compare-exchange.
  std::string atomic(const ClBuffer& b, AtomicOp op, const std::string& target,
                     const std::string& index, const std::string& expected,
                     const std::string& value) const;

 private:
  const KernelInterface& iface_;
  std::vector<ClBuffer> buffers_;
};

/// The statement of one vyre Barrier: storage and workgroup writes made before
/// it become visible to the whole workgroup after it (S6).
inline constexpr std::string_view kBarrierStatement =
    "barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);";

/// `text` with every character outside printable ASCII replaced by '?', for
/// names quoted in messages.
std::string printable(std::string_view text);

/// `text` with every character but letters, digits, space, '.', '_' and '-'
/// replaced by '_', for names quoted in `//` comments: a backslash (or the
/// trigraph ??/) at the end would continue the comment onto the next line.
std::string comment_text(std::string_view text);

}  // namespace vyre::opencl
