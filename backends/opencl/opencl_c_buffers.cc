// OpenCL C declarations and bounds-checked accesses of a program's buffers.
#include "backends/opencl/opencl_c_buffers.h"

#include <algorithm>

#include "backends/opencl/opencl_c_dialect.h"

namespace vyre::opencl {
namespace {

std::string memory_type(DataType t) {
  const auto row = opencl_c_dialect().type(t);
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

ClBuffers::ClBuffers(const Program& program, const KernelInterface& iface)
    : BufferAccessor(program, iface, "n"), iface_(iface) {}

std::string ClBuffers::parameters() const {
  std::string out;
  for (size_t i = 0; i < iface_.buffers.size(); ++i) {
    const KernelBuffer& b = iface_.buffers[i];
    out += "\n    " + pointer_type(b) + " b" + std::to_string(i) + ",  // " +
           clike::comment_text(b.name) + ": " + std::string(name_of(b.access)) + " " +
           std::string(name_of(b.element));
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
  for (const clike::ClikeBuffer& b : buffers_) {
    if (b.bound) continue;
    const std::string type = memory_type(b.decl->element);
    declarations += "  __local " + type + " " + b.ident + "[" + std::to_string(b.decl->count) +
                    "];  // " + clike::comment_text(b.decl->name) + "\n";
    const std::string zero =
        clike::zeroing_loop(opencl_c_dialect(), b, "vyre_local_index", invocations);
    if (!zero.empty()) zeroing += "    " + zero + "\n";
  }
  if (declarations.empty()) return "";
  const auto& size = iface_.workgroup_size;
  return declarations +
         "  {  // Workgroup memory starts at zero (S5).\n"
         "    const uint vyre_local_index = (uint)(get_local_id(2) * " +
         std::to_string(uint64_t{size[0]} * size[1]) + "u + get_local_id(1) * " +
         std::to_string(size[0]) + "u + get_local_id(0));\n" + zeroing + "  }\n  " +
         std::string(opencl_c_dialect().barrier.execution) + "\n";
}

std::string ClBuffers::load(clike::Code& code, const clike::Access& a) {
  const clike::ClikeBuffer& b = a.buffer;
  const auto type = opencl_c_dialect().type(b.decl->element);
  const std::string result = code.zeroed_temp(b.decl->element);
  code.line("if (" + clike::bounds_test(clike::AccessKind::Load, a.index, b, false) + ") " +
            result + " = " + clike::expand(type->from_memory, {b.ident + "[" + a.index + "]"}) +
            ";");
  return result;
}

void ClBuffers::store(clike::Code& code, const clike::Access& a) {
  const clike::ClikeBuffer& b = a.buffer;
  const auto type = opencl_c_dialect().type(b.decl->element);
  code.line("if (" + clike::bounds_test(clike::AccessKind::Store, a.index, b, false) + ") " +
            b.ident + "[" + a.index + "] = " + clike::expand(type->to_memory, {a.value}) + ";");
}

std::string ClBuffers::atomic(clike::Code& code, const clike::Access& a) {
  const std::string result = code.zeroed_temp(DataType::U32);
  const std::string element = a.buffer.ident + "[" + a.index + "]";
  const std::string test = clike::bounds_test(clike::AccessKind::Atomic, a.index, a.buffer, false);
  const std::string guard = test.empty() ? "" : "if (" + test + ") ";
  if (clike::atomic_add_split(a.op)) {
    code.line(guard + "{ " + result + " = " + element + "; " + element + " = " + result + " + " +
              a.value + "; }");
  } else {
    code.line(guard + result + " = " +
              clike::atomic_call(opencl_c_dialect(), a.op, element, a.expected, a.value) + ";");
  }
  return result;
}

std::string ClBuffers::budget_exhausted() const {
  return "vyre_control[0] = 1u;";
}

std::string ClBuffers::loop_cut_short() const {
  return "";
}

}  // namespace vyre::opencl
