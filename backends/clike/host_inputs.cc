#include "backends/clike/host_inputs.h"

#include <algorithm>
#include <string>

#include "spec/ir/uniform_limit.h"

namespace vyre::clike {

Result<Ok> check_host_inputs(const EntryInterface& iface, const BufferSet& inputs,
                             const Grid& grid) {
  constexpr const char* kAxes[] = {"x", "y", "z"};
  for (size_t axis = 0; axis < 3; ++axis) {
    if (grid.workgroups[axis] == 0) {
      return Error{std::string("the grid has 0 workgroups on ") + kAxes[axis] +
                   "; every axis needs at least 1"};
    }
  }
  for (const auto& [name, bytes] : inputs) {
    const bool known = std::any_of(iface.buffers.begin(), iface.buffers.end(),
                                   [&n = name](const BoundBuffer& b) { return b.name == n; });
    if (!known) {
      return Error{"input `" + name + "` names no buffer of the program that takes a binding"};
    }
  }
  for (const BoundBuffer& b : iface.buffers) {
    const auto it = inputs.find(b.name);
    if (it == inputs.end()) {
      return Error{"no input bytes for buffer `" + b.name + "`; every non-workgroup buffer, " +
                   "read_write ones included, needs its initial bytes"};
    }
    const uint64_t expected = uint64_t{b.declared_count} * element_size(b.element);
    if (b.declared_count != 0 && it->second.size() != expected) {
      return Error{"buffer `" + b.name + "` is declared with " + std::to_string(b.declared_count) +
                   " elements, so it needs exactly " + std::to_string(expected) + " bytes; got " +
                   std::to_string(it->second.size())};
    }
    if (b.access == BufferAccess::Uniform && it->second.size() > kMaxUniformBytes) {
      return Error{"uniform buffer `" + b.name + "` has " + std::to_string(it->second.size()) +
                   " bytes; uniform buffers hold at most " + std::to_string(kMaxUniformBytes)};
    }
  }
  return Ok{};
}

}  // namespace vyre::clike
