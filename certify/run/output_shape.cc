#include "certify/run/output_shape.h"

#include <algorithm>

namespace vyre::certify {

std::optional<std::string> output_shape_problem(const Program& program, const BufferSet& inputs,
                                                const BufferSet& outputs,
                                                const std::vector<std::string>& may_be_absent) {
  size_t returned = 0;  // The program's read_write buffers that came back.
  size_t read_write = 0;
  for (const BufferDecl& b : program.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    ++read_write;
    auto out = outputs.find(b.name);
    if (out == outputs.end()) {
      if (std::find(may_be_absent.begin(), may_be_absent.end(), b.name) != may_be_absent.end()) {
        continue;
      }
      return "malformed output: the read_write buffer '" + b.name + "' did not come back";
    }
    ++returned;
    auto in = inputs.find(b.name);
    if (in != inputs.end() && in->second.size() != out->second.size()) {
      return "malformed output: buffer '" + b.name + "' came back with " +
             std::to_string(out->second.size()) + " bytes; the dispatch gave it " +
             std::to_string(in->second.size());
    }
  }
  if (outputs.size() != returned) {
    // Some name is no read_write buffer of the program: say which.
    for (const auto& [name, bytes] : outputs) {
      const auto declared = std::find_if(
          program.buffers.begin(), program.buffers.end(), [&n = name](const BufferDecl& b) {
            return b.name == n && b.access == BufferAccess::ReadWrite;
          });
      if (declared == program.buffers.end()) {
        return "malformed output: buffer '" + name +
               "' came back, but the program has no read_write buffer of that name (it has " +
               std::to_string(read_write) + ")";
      }
    }
  }
  return std::nullopt;
}

}  // namespace vyre::certify
