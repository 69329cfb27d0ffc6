#include "backends/clike/int_limits.h"

#include "backends/clike/buffer_accessor.h"

namespace vyre::clike {

std::optional<std::string> beyond_int_limits(const Program& program, std::string_view writer,
                                             std::string_view kernel) {
  constexpr const char* kAxes[] = {"x", "y", "z"};
  const std::string limit = " is past " + std::to_string(kMaxKernelInt) + ", the largest int " +
                            std::string(writer) + " can write there, so no " + std::string(kernel) +
                            " can express this program";
  for (size_t axis = 0; axis < 3; ++axis) {
    if (program.workgroup_size[axis] > kMaxKernelInt) {
      return "the workgroup size on " + std::string(kAxes[axis]) + " " +
             std::to_string(program.workgroup_size[axis]) + limit;
    }
  }
  for (const BufferDecl& decl : program.buffers) {
    if (!takes_binding(decl.access) && decl.count > kMaxKernelInt) {
      return "workgroup buffer `" + printable(decl.name) + "` has " + std::to_string(decl.count) +
             " elements, which" + limit;
    }
  }
  return std::nullopt;
}

}  // namespace vyre::clike
