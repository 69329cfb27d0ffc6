// Kernel-language declarations and bounds-checked accesses of a program's buffers.
#include "backends/clike/kernel_buffers.h"

#include <algorithm>

#include "backends/clike/emitter.h"

namespace vyre::clike {

KernelBuffers::KernelBuffers(const Program& program, const EntryInterface& iface,
                             const Dialect& dialect, const KernelSpelling& spelling)
    : BufferAccessor(program, iface, "n"), iface_(iface), d_(dialect), spelling_(spelling) {}

std::string KernelBuffers::memory_type(DataType t) const {
  const auto row = d_.type(t);
  return std::string(row ? row->memory : d_.type(DataType::U32)->memory);
}

/// Address space and qualifiers of a bound buffer's pointer.
std::string KernelBuffers::pointer_type(const BoundBuffer& b) const {
  const std::string element = memory_type(b.element);
  switch (b.access) {
    case BufferAccess::Uniform:
      return expand(spelling_.uniform_pointer, {element});
    case BufferAccess::ReadOnly:
      return expand(spelling_.read_only_pointer, {element});
    default:
      return expand(spelling_.read_write_pointer, {element});
  }
}

std::string KernelBuffers::parameters() const {
  const std::string u32(d_.type(DataType::U32)->value);
  std::string out;
  for (size_t i = 0; i < iface_.buffers.size(); ++i) {
    const BoundBuffer& b = iface_.buffers[i];
    out += "\n    " + pointer_type(b) + " b" + std::to_string(i) + ",  // " + comment_text(b.name) +
           ": " + std::string(name_of(b.access)) + " " + std::string(name_of(b.element));
  }
  for (size_t i = 0; i < iface_.buffers.size(); ++i) {
    out +=
        "\n    " + u32 + " n" + std::to_string(i) + ",  // element count of b" + std::to_string(i);
  }
  if (iface_.has_control_buffer) {
    out += "\n    " + expand(spelling_.read_write_pointer, {memory_type(DataType::U32)}) +
           " vyre_control,  // word 0: a loop iteration budget ran out";
  }
  if (out.empty()) return "void";
  // The last parameter takes no comma: drop the one before its comment.
  const size_t comma = out.rfind(",  //");
  out.erase(comma, 1);
  // The closing parenthesis goes on its own line, after the last comment.
  return out + "\n";
}

std::string KernelBuffers::workgroup_memory() const {
  std::string declarations;
  std::string zeroing;
  // No device has 2^32 invocations in a workgroup; clamping keeps the literal
  // a valid u32 for programs that are refused at dispatch anyway.
  const uint64_t invocations = std::min<uint64_t>(iface_.workgroup_invocations(), 0xFFFFFFFFu);
  for (const ClikeBuffer& b : buffers_) {
    if (b.bound) continue;
    declarations += "  " + std::string(spelling_.workgroup_array) + memory_type(b.decl->element) +
                    " " + b.ident + "[" + std::to_string(b.decl->count) + "];  // " +
                    comment_text(b.decl->name) + "\n";
    const std::string zero = zeroing_loop(d_, b, "vyre_local_index", invocations);
    if (!zero.empty()) zeroing += "    " + zero + "\n";
  }
  if (declarations.empty()) return "";
  const auto& size = iface_.workgroup_size;
  const std::string z_stride = std::to_string(uint64_t{size[0]} * size[1]) + "u";
  const std::string y_stride = std::to_string(size[0]) + "u";
  return declarations + "  {  // Workgroup memory starts at zero (S5).\n    const " +
         std::string(d_.type(DataType::U32)->value) +
         " vyre_local_index = " + expand(spelling_.local_index, {z_stride, y_stride}) + ";\n" +
         zeroing + "  }\n  " + std::string(d_.barrier.execution) + "\n";
}

std::string KernelBuffers::load(Code& code, const Access& a) {
  const ClikeBuffer& b = a.buffer;
  const auto type = d_.type(b.decl->element);
  const std::string result = code.zeroed_temp(b.decl->element);
  code.line("if (" + bounds_test(AccessKind::Load, a.index, b, false) + ") " + result + " = " +
            expand(type->from_memory, {b.ident + "[" + a.index + "]"}) + ";");
  return result;
}

void KernelBuffers::store(Code& code, const Access& a) {
  const ClikeBuffer& b = a.buffer;
  const auto type = d_.type(b.decl->element);
  code.line("if (" + bounds_test(AccessKind::Store, a.index, b, false) + ") " + b.ident + "[" +
            a.index + "] = " + expand(type->to_memory, {a.value}) + ";");
}

std::string KernelBuffers::atomic(Code& code, const Access& a) {
  const std::string result = code.zeroed_temp(DataType::U32);
  const std::string element = a.buffer.ident + "[" + a.index + "]";
  const std::string test = bounds_test(AccessKind::Atomic, a.index, a.buffer, false);
  const std::string guard = test.empty() ? "" : "if (" + test + ") ";
  if (atomic_add_split(a.op)) {
    code.line(guard + "{ " + result + " = " + element + "; " + element + " = " + result + " + " +
              a.value + "; }");
  } else {
    code.line(guard + result + " = " + atomic_call(d_, a.op, element, a.expected, a.value) + ";");
  }
  return result;
}

std::string KernelBuffers::budget_exhausted() const {
  return "vyre_control[0] = 1u;";
}

std::string KernelBuffers::loop_cut_short() const {
  return "";
}

Result<std::string> kernel_source(const Program& program, const EntryInterface& iface,
                                  const Dialect& dialect, const KernelSpelling& spelling,
                                  std::string_view backend, std::string_view head,
                                  const OpRegistry& ops) {
  KernelBuffers buffers(program, iface, dialect, spelling);
  Result<std::string> body = emit_body(program, dialect, buffers, iface.loop_iteration_budget, ops);
  if (!body.ok()) return body.error();
  return "// Lowered from a vyre 0.4.0 program (backends/" + std::string(backend) + ").\n" +
         std::string(dialect.prelude) + std::string(head) + "(" + buffers.parameters() + ") {\n" +
         buffers.workgroup_memory() + *body + "}\n";
}

}  // namespace vyre::clike
