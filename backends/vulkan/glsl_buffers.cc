// GLSL declarations and accessors of a program's buffers.
#include "backends/vulkan/glsl_buffers.h"

#include <algorithm>

#include "backends/vulkan/glsl_tables.h"
#include "backends/vulkan/mutants/mutant.h"

namespace vyre::vulkan {
namespace {

/// Uniform blocks hold at most 64 KiB (S1): 4096 uvec4 rows.
constexpr uint32_t kMaxUniformRows = 65536 / 16;

/// std140 pads array elements to 16 bytes, so a uniform buffer is declared as
/// uvec4 rows and elements are reassembled from their packed words.
uint32_t uniform_rows(const BoundBuffer& b) {
  if (b.declared_count == 0) return kMaxUniformRows;
  const uint64_t bytes = uint64_t{b.declared_count} * element_size(b.element);
  return static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + 15) / 16));
}

std::string memory_type(DataType t) {
  const auto row = glsl_type(t);
  return std::string(row ? row->memory : "uint");
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
  std::string out = printable(text);
  // A backslash ending a `//` comment continues it onto the next line (GLSL
  // line continuation), which would comment out the code there.
  std::replace(out.begin(), out.end(), '\\', '?');
  return out;
}

GlslBuffers::GlslBuffers(const Program& program, const ShaderInterface& iface) : iface_(iface) {
  for (size_t i = 0; i < iface.buffers.size(); ++i) {
    buffers_.push_back({program.buffer(iface.buffers[i].name), "b" + std::to_string(i),
                        "vyre_counts.n" + std::to_string(i), true});
  }
  size_t shared = 0;
  for (const BufferDecl& decl : program.buffers) {
    if (takes_binding(decl.access)) continue;
    buffers_.push_back(
        {&decl, "w" + std::to_string(shared++), std::to_string(decl.count) + "u", false});
  }
}

const GlslBuffer* GlslBuffers::find(std::string_view name) const {
  for (const GlslBuffer& b : buffers_) {
    if (b.decl->name == name) return &b;
  }
  return nullptr;
}

std::string GlslBuffers::load(const GlslBuffer& buffer) {
  used_.insert({static_cast<size_t>(&buffer - buffers_.data()), Kind::Load, AtomicOp::Add});
  return "load_" + buffer.ident;
}

std::string GlslBuffers::store(const GlslBuffer& buffer) {
  used_.insert({static_cast<size_t>(&buffer - buffers_.data()), Kind::Store, AtomicOp::Add});
  return "store_" + buffer.ident;
}

std::string GlslBuffers::atomic(const GlslBuffer& buffer, AtomicOp op) {
  used_.insert({static_cast<size_t>(&buffer - buffers_.data()), Kind::Atomic, op});
  return std::string(name_of(op)) + "_" + buffer.ident;
}

std::string GlslBuffers::declarations() const {
  std::string out;
  if (!iface_.buffers.empty()) {
    out += "// Element counts of the bound buffers (host bytes / element size).\n";
    out += "layout(push_constant) uniform VyreCounts {\n";
    for (size_t i = 0; i < iface_.buffers.size(); ++i) {
      out +=
          "  uint n" + std::to_string(i) + ";  // " + comment_text(iface_.buffers[i].name) + "\n";
    }
    out += "} vyre_counts;\n";
  }
  for (size_t i = 0; i < iface_.buffers.size(); ++i) {
    const BoundBuffer& b = iface_.buffers[i];
    const std::string binding = "layout(std" +
                                std::string(b.access == BufferAccess::Uniform ? "140" : "430") +
                                ", set = 0, binding = " + std::to_string(i) + ") ";
    const std::string block = "B" + std::to_string(i);
    const std::string comment = "  // " + comment_text(b.name) + ": " +
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
  for (const GlslBuffer& b : buffers_) {
    if (b.bound) continue;
    out += "shared " + memory_type(b.decl->element) + " " + b.ident + "[" +
           std::to_string(b.decl->count) + "];  // " + comment_text(b.decl->name) + "\n";
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
  const GlslBuffer& b = buffers_[index];
  const DataType element = b.decl->element;
  const auto type = glsl_type(element);
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
      const char* past_end = mutant_active(Mutant::LoadGuardOffByOne) ? " > " : " >= ";
      out += value + " load_" + b.ident + "(uint i) {\n  if (i" + past_end + b.count + ") return " +
             std::string(type->zero) + ";\n  return " + expand(type->from_memory, {element_text}) +
             ";\n}\n";
      break;
    }
    case Kind::Store: {
      const char* in_range = mutant_active(Mutant::StoreGuardOffByOne) ? " <= " : " < ";
      out += "void store_" + b.ident + "(uint i, " + value + " v) {\n  if (i" + in_range + b.count +
             ") " + slot + " = " + expand(type->to_memory, {"v"}) + ";\n}\n";
      break;
    }
    case Kind::Atomic: {
      // Device-scope atomics without fences: see DESIGN.md, "Atomics".
      const bool cas = op == AtomicOp::CompareExchange;
      const std::string name = std::string(name_of(op)) + "_" + b.ident;
      const std::string guard = mutant_active(Mutant::AtomicGuardMissing)
                                    ? ""
                                    : "  if (i >= " + b.count + ") return 0u;\n";
      std::string call = std::string(glsl_atomic_function(op)) + "(" + slot + ", " +
                         (cas ? "expected, " : "") + "v)";
      if (cas && mutant_active(Mutant::CompareExchangeArgsSwapped)) {
        call = std::string(glsl_atomic_function(op)) + "(" + slot + ", v, expected)";
      }
      if (op == AtomicOp::Add && mutant_active(Mutant::AtomicAddReturnsNew)) call += " + v";
      if (op == AtomicOp::Exchange && mutant_active(Mutant::AtomicExchangeReturnsValue)) {
        call = "(" + call + ", v)";
      }
      if (op == AtomicOp::Add && mutant_active(Mutant::AtomicAddNotAtomic)) {
        out += "uint " + name + "(uint i, uint v) {\n" + guard + "  const uint old = " + slot +
               ";\n  " + slot + " = old + v;\n  return old;\n}\n";
        break;
      }
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
  for (const GlslBuffer& b : buffers_) {
    if (b.bound) continue;
    const std::string type = memory_type(b.decl->element);
    if (mutant_active(Mutant::WorkgroupMemoryNotZeroed)) continue;
    if (mutant_active(Mutant::WorkgroupZeroFirstPassOnly)) {
      out += "  if (gl_LocalInvocationIndex < " + b.count + ") " + b.ident +
             "[gl_LocalInvocationIndex] = " + type + "(0u);\n";
      continue;
    }
    out += "  for (uint i = gl_LocalInvocationIndex; i < " + b.count +
           "; i += " + std::to_string(invocations) + "u) " + b.ident + "[i] = " + type + "(0u);\n";
  }
  if (out.empty()) return out;
  for (std::string_view statement : kBarrierStatements) out += "  " + std::string(statement) + "\n";
  return out;
}

}  // namespace vyre::vulkan
