// GLSL declarations and accessors of a program's buffers.
#include "backends/vulkan/glsl_buffers.h"

#include <algorithm>

#include "backends/mutants/mutant.h"
#include "backends/vulkan/glsl_dialect.h"
#include "spec/ir/uniform_limit.h"

namespace vyre::vulkan {
namespace {

/// Uniform blocks hold at most 64 KiB (S1): 4096 uvec4 rows.
constexpr uint32_t kMaxUniformRows = kMaxUniformBytes / 16;

/// std140 pads array elements to 16 bytes, so a uniform buffer is declared as
/// uvec4 rows and elements are reassembled from their packed words.
uint32_t uniform_rows(const BoundBuffer& b) {
  if (b.declared_count == 0) return kMaxUniformRows;
  const uint64_t bytes = uint64_t{b.declared_count} * element_size(b.element);
  return static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + 15) / 16));
}

std::string memory_type(DataType t) {
  const auto row = glsl_dialect().type(t);
  return std::string(row ? row->memory : "uint");
}

}  // namespace

GlslBuffers::GlslBuffers(const Program& program, const ShaderInterface& iface)
    : BufferAccessor(program, iface, "vyre_counts.n"), iface_(iface) {}

void GlslBuffers::use(const clike::ClikeBuffer& b, Kind kind, AtomicOp op) {
  used_.insert({static_cast<size_t>(&b - buffers_.data()), kind, op});
}

std::string GlslBuffers::load(clike::Code& code, const clike::Access& a) {
  use(a.buffer, Kind::Load, AtomicOp::Add);
  return code.temp(a.buffer.decl->element, "load_" + a.buffer.ident + "(" + a.index + ")");
}

void GlslBuffers::store(clike::Code& code, const clike::Access& a) {
  use(a.buffer, Kind::Store, AtomicOp::Add);
  code.line("store_" + a.buffer.ident + "(" + a.index + ", " + a.value + ");");
}

std::string GlslBuffers::atomic(clike::Code& code, const clike::Access& a) {
  use(a.buffer, Kind::Atomic, a.op);
  const std::string args = a.index + ", " + (a.expected.empty() ? "" : a.expected + ", ") + a.value;
  return code.temp(DataType::U32,
                   std::string(name_of(a.op)) + "_" + a.buffer.ident + "(" + args + ")");
}

std::string GlslBuffers::budget_exhausted() const {
  return "vyre_control.budget_exhausted = 1u;";
}

std::string GlslBuffers::loop_cut_short() const {
  return "vyre_control.loop_cut_short = 1u;";
}

std::string GlslBuffers::declarations() const {
  std::string out;
  if (!iface_.buffers.empty()) {
    out += "// Element counts of the bound buffers (host bytes / element size).\n";
    out += "layout(push_constant) uniform VyreCounts {\n";
    for (size_t i = 0; i < iface_.buffers.size(); ++i) {
      out += "  uint n" + std::to_string(i) + ";  // " +
             clike::comment_text(iface_.buffers[i].name) + "\n";
    }
    out += "} vyre_counts;\n";
  }
  for (size_t i = 0; i < iface_.buffers.size(); ++i) {
    const BoundBuffer& b = iface_.buffers[i];
    const std::string binding = "layout(std" +
                                std::string(b.access == BufferAccess::Uniform ? "140" : "430") +
                                ", set = 0, binding = " + std::to_string(i) + ") ";
    const std::string block = "B" + std::to_string(i);
    const std::string comment = "  // " + clike::comment_text(b.name) + ": " +
                                std::string(name_of(b.access)) + " " +
                                std::string(name_of(b.element)) + "\n";
    if (b.access == BufferAccess::Uniform) {
      out += binding + "uniform " + block + " { uvec4 w[" + std::to_string(uniform_rows(b)) +
             "]; } b" + std::to_string(i) + ";" + comment;
    } else {
      // Writable buffers are coherent so that writes before a barrier are
      // visible to the workgroup after it (S6).
      const std::string qualifier = b.access == BufferAccess::ReadOnly ? "readonly" : "coherent";
      out += binding + qualifier + " buffer " + block + " { " + memory_type(b.element) +
             " e[]; } b" + std::to_string(i) + ";" + comment;
    }
  }
  if (iface_.has_control_buffer) {
    out += "// Set to 1 when an invocation runs out of loop iterations, or a loop ends early.\n";
    out += "layout(std430, set = 0, binding = " + std::to_string(iface_.control_binding()) +
           ") coherent buffer VyreControl { uint budget_exhausted; uint loop_cut_short; } "
           "vyre_control;\n";
  }
  for (const clike::ClikeBuffer& b : buffers_) {
    if (b.bound) continue;
    out += "shared " + memory_type(b.decl->element) + " " + b.ident + "[" +
           std::to_string(b.decl->count) + "];  // " + clike::comment_text(b.decl->name) + "\n";
  }
  return out;
}

std::string GlslBuffers::accessors() const {
  std::string out;
  for (const Use& use : used_) out += accessor(use);
  return out;
}

std::string GlslBuffers::accessor(const Use& use) const {
  const auto& [index, kind, op] = use;
  const clike::ClikeBuffer& b = buffers_[index];
  const DataType element = b.decl->element;
  const auto type = glsl_dialect().type(element);
  if (!type) return "";
  const std::string value(type->value);
  const bool uniform = b.decl->access == BufferAccess::Uniform;
  const std::string slot = b.bound ? b.ident + ".e[i]" : b.ident + "[i]";
  std::string out;
  switch (kind) {
    case Kind::Load: {
      std::string element_text = slot;
      if (uniform) {
        // Packed layout: element i is words [i*n, i*n+n) of the 16-byte rows.
        const uint32_t words = word_count(element);
        const uint32_t stride = mutant_active(Mutant::UniformWordStrideOne) ? 1 : words;
        out += "uint word_" + b.ident + "(uint k) { return " + b.ident + ".w[k >> 2u][k & 3u]; }\n";
        element_text = std::string(type->memory) + "(";
        for (uint32_t w = 0; w < words; ++w) {
          element_text += (w ? ", " : "") + ("word_" + b.ident + "(i * " + std::to_string(stride) +
                                             "u + " + std::to_string(w) + "u)");
        }
        element_text += ")";
      }
      out += value + " load_" + b.ident + "(uint i) {\n  if (" +
             clike::bounds_test(clike::AccessKind::Load, "i", b, true) + ") return " +
             std::string(type->zero) + ";\n  return " +
             clike::expand(type->from_memory, {element_text}) + ";\n}\n";
      break;
    }
    case Kind::Store: {
      out += "void store_" + b.ident + "(uint i, " + value + " v) {\n  if (" +
             clike::bounds_test(clike::AccessKind::Store, "i", b, false) + ") " + slot + " = " +
             clike::expand(type->to_memory, {"v"}) + ";\n}\n";
      break;
    }
    case Kind::Atomic: {
      // Device-scope atomics without fences: see DESIGN.md, "Atomics".
      const bool cas = op == AtomicOp::CompareExchange;
      const std::string name = std::string(name_of(op)) + "_" + b.ident;
      const std::string test = clike::bounds_test(clike::AccessKind::Atomic, "i", b, true);
      const std::string guard = test.empty() ? "" : "  if (" + test + ") return 0u;\n";
      if (clike::atomic_add_split(op)) {
        out += "uint " + name + "(uint i, uint v) {\n" + guard + "  const uint old = " + slot +
               ";\n  " + slot + " = old + v;\n  return old;\n}\n";
        break;
      }
      const std::string call =
          clike::atomic_call(glsl_dialect(), op, slot, cas ? "expected" : "", "v");
      out += "uint " + name + "(uint i, " + (cas ? "uint expected, " : "") + "uint v) {\n" + guard +
             "  return " + call + ";\n}\n";
      break;
    }
  }
  return out;
}

std::string GlslBuffers::zero_workgroup_memory() const {
  std::string out;
  // No device has 2^32 invocations in a workgroup; clamping keeps the literal
  // a valid u32 for the programs that will be refused at dispatch anyway.
  const uint64_t invocations = std::min<uint64_t>(iface_.workgroup_invocations(), 0xFFFFFFFFu);
  for (const clike::ClikeBuffer& b : buffers_) {
    if (b.bound) continue;
    const std::string zeroing =
        clike::zeroing_loop(glsl_dialect(), b, "gl_LocalInvocationIndex", invocations);
    if (!zeroing.empty()) out += "  " + zeroing + "\n";
  }
  if (out.empty()) return out;
  for (const std::string& statement : clike::barrier_statements(glsl_dialect()))
    out += "  " + statement + "\n";
  return out;
}

}  // namespace vyre::vulkan
