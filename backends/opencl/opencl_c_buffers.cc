// OpenCL C declarations and bounds-checked accesses of a program's buffers.
#include "backends/opencl/opencl_c_buffers.h"

#include <algorithm>
#include <cctype>

#include "backends/opencl/opencl_c_tables.h"

namespace vyre::opencl {
namespace {

std::string memory_type(DataType t) {
  const auto row = opencl_type(t);
  return std::string(row ? row->memory : "uint");
}

/// Address space and qualifiers of a bound buffer's pointer.
std::string pointer_type(const KernelBuffer& b) {
  const std::string element = memory_type(b.element);
  switch (b.access) {
    case BufferAccess::Uniform:
      return "__constant " + element + "*";
    case BufferAccess::ReadOnly:
      return "__global const " + element + "*";
    default:
      return "__global " + element + "*";
  }
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return out;
}

std::string comment_text(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) || c == ' ' || c == '.' || c == '_' || c == '-';
    if (!keep) c = '_';
  }
  return out;
}

ClBuffers::ClBuffers(const Program& program, const KernelInterface& iface) : iface_(iface) {
  for (size_t i = 0; i < iface.buffers.size(); ++i) {
    buffers_.push_back({program.buffer(iface.buffers[i].name), "b" + std::to_string(i),
                        "n" + std::to_string(i), true});
  }
  size_t shared = 0;
  for (const BufferDecl& decl : program.buffers) {
    if (takes_binding(decl.access)) continue;
    buffers_.push_back(
        {&decl, "w" + std::to_string(shared++), std::to_string(decl.count) + "u", false});
  }
}

const ClBuffer* ClBuffers::find(std::string_view name) const {
  for (const ClBuffer& b : buffers_) {
    if (b.decl->name == name) return &b;
  }
  return nullptr;
}

std::string ClBuffers::parameters() const {
  std::string out;
  for (size_t i = 0; i < iface_.buffers.size(); ++i) {
    const KernelBuffer& b = iface_.buffers[i];
    out += "\n    " + pointer_type(b) + " b" + std::to_string(i) + ",  // " + comment_text(b.name) +
           ": " + std::string(name_of(b.access)) + " " + std::string(name_of(b.element));
  }
  for (size_t i = 0; i < iface_.buffers.size(); ++i) {
    out += "\n    uint n" + std::to_string(i) + ",  // element count of b" + std::to_string(i);
  }
  if (iface_.has_control_buffer) {
    out += "\n    __global uint* vyre_control,  // word 0: a loop iteration budget ran out";
  }
  if (out.empty()) return "void";
  // The last parameter takes no comma: drop the one before its comment.
  const size_t comma = out.rfind(",  //");
  out.erase(comma, 1);
  // The closing parenthesis goes on its own line, after the last comment.
  return out + "\n";
}

std::string ClBuffers::workgroup_memory() const {
  std::string declarations;
  std::string zeroing;
  // No device has 2^32 invocations in a workgroup; clamping keeps the literal
  // a valid uint for programs that are refused at dispatch anyway.
  const uint64_t invocations = std::min<uint64_t>(iface_.workgroup_invocations(), 0xFFFFFFFFu);
  for (const ClBuffer& b : buffers_) {
    if (b.bound) continue;
    const std::string type = memory_type(b.decl->element);
    declarations += "  __local " + type + " " + b.ident + "[" + std::to_string(b.decl->count) +
                    "];  // " + comment_text(b.decl->name) + "\n";
    zeroing += "    for (uint i = vyre_local_index; i < " + b.count +
               "; i += " + std::to_string(invocations) + "u) " + b.ident + "[i] = (" + type +
               ")(0u);\n";
  }
  if (declarations.empty()) return "";
  const auto& size = iface_.workgroup_size;
  return declarations +
         "  {  // Workgroup memory starts at zero (S5).\n"
         "    const uint vyre_local_index = (uint)(get_local_id(2) * " +
         std::to_string(uint64_t{size[0]} * size[1]) + "u + get_local_id(1) * " +
         std::to_string(size[0]) + "u + get_local_id(0));\n" + zeroing + "  }\n  " +
         std::string(kBarrierStatement) + "\n";
}

std::string ClBuffers::load(const ClBuffer& b, const std::string& target,
                            const std::string& index) const {
  const auto type = opencl_type(b.decl->element);
  return "if (" + index + " < " + b.count + ") " + target + " = " +
         expand(type->from_memory, {b.ident + "[" + index + "]"}) + ";";
}

std::string ClBuffers::store(const ClBuffer& b, const std::string& index,
                             const std::string& value) const {
  const auto type = opencl_type(b.decl->element);
  return "if (" + index + " < " + b.count + ") " + b.ident + "[" + index +
         "] = " + expand(type->to_memory, {value}) + ";";
}

std::string ClBuffers::atomic(const ClBuffer& b, AtomicOp op, const std::string& target,
                              const std::string& index, const std::string& expected,
                              const std::string& value) const {
  return "if (" + index + " < " + b.count + ") " + target + " = " +
         std::string(opencl_atomic_function(op)) + "(&" + b.ident + "[" + index + "], " +
         (expected.empty() ? "" : expected + ", ") + value + ");";
}

}  // namespace vyre::opencl
