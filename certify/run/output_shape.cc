#include "certify/run/output_shape.h"

namespace vyre::certify {

std::optional<std::string> output_shape_problem(const Program& program, const BufferSet& inputs,
                                                const BufferSet& outputs) {
  size_t read_write = 0;
  for (const BufferDecl& b : program.buffers) {
    if (b.access != BufferAccess::ReadWrite) continue;
    ++read_write;
    auto out = outputs.find(b.name);
    if (out == outputs.end()) {
      return "malformed output: the read_write buffer '" + b.name + "' did not come back";
    }
    auto in = inputs.find(b.name);
    if (in != inputs.end() && in->second.size() != out->second.size()) {
      return "malformed output: buffer '" + b.name + "' came back with " +
             std::to_string(out->second.size()) + " bytes; the dispatch gave it " +
             std::to_string(in->second.size());
    }
  }
  if (outputs.size() != read_write) {
    return "malformed output: " + std::to_string(outputs.size()) +
           " buffers came back, but the program has " + std::to_string(read_write) +
           " read_write buffer(s)";
  }
  return std::nullopt;
}

}  // namespace vyre::certify
