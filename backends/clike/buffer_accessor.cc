// What every BufferAccessor shares: the program's buffers, the bounds guards,
// the atomic call, workgroup zeroing and the barrier. The seeded bugs of
// guards, atomics and zeroing (backends/mutants/mutants.def) are written here
// once, so that each applies to every dialect.
#include "backends/clike/buffer_accessor.h"

#include <cctype>

#include "backends/mutants/mutant.h"

namespace vyre::clike {

BufferAccessor::BufferAccessor(const Program& program, const EntryInterface& iface,
                               std::string_view count_prefix) {
  for (size_t i = 0; i < iface.buffers.size(); ++i) {
    buffers_.push_back({program.buffer(iface.buffers[i].name), "b" + std::to_string(i),
                        std::string(count_prefix) + std::to_string(i), true});
  }
  size_t shared = 0;
  for (const BufferDecl& decl : program.buffers) {
    if (takes_binding(decl.access)) continue;
    buffers_.push_back(
        {&decl, "w" + std::to_string(shared++), std::to_string(decl.count) + "u", false});
  }
}

const ClikeBuffer* BufferAccessor::find(std::string_view name) const {
  for (const ClikeBuffer& b : buffers_) {
    if (b.decl->name == name) return &b;
  }
  return nullptr;
}

std::string bounds_test(AccessKind kind, const std::string& index, const ClikeBuffer& b,
                        bool past_end) {
  if (kind == AccessKind::Atomic && mutant_active(Mutant::AtomicGuardMissing)) return "";
  const bool off_by_one = (kind == AccessKind::Load && mutant_active(Mutant::LoadGuardOffByOne)) ||
                          (kind == AccessKind::Store && mutant_active(Mutant::StoreGuardOffByOne));
  const char* test = past_end ? (off_by_one ? " > " : " >= ") : (off_by_one ? " <= " : " < ");
  return index + test + b.count;
}

std::string atomic_call(const Dialect& d, AtomicOp op, const std::string& element,
                        const std::string& expected, const std::string& value) {
  const std::string target = expand(d.atomic_target, {element});
  std::string args = target + ", " + (expected.empty() ? "" : expected + ", ") + value;
  if (op == AtomicOp::CompareExchange && mutant_active(Mutant::CompareExchangeArgsSwapped))
    args = target + ", " + value + ", " + expected;
  std::string call = std::string(d.atomic_function(op)) + "(" + args + ")";
  if (op == AtomicOp::Add && mutant_active(Mutant::AtomicAddReturnsNew)) call += " + " + value;
  if (op == AtomicOp::Exchange && mutant_active(Mutant::AtomicExchangeReturnsValue))
    call = "(" + call + ", " + value + ")";
  return call;
}

bool atomic_add_split(AtomicOp op) {
  return op == AtomicOp::Add && mutant_active(Mutant::AtomicAddNotAtomic);
}

std::string zeroing_loop(const Dialect& d, const ClikeBuffer& b, std::string_view local_index,
                         uint64_t invocations) {
  if (mutant_active(Mutant::WorkgroupMemoryNotZeroed)) return "";
  // A buffer of a type no kernel holds (Bytes) is zeroed as words; no access
  // to it lowers, and the validator rejects it first.
  const auto row = d.type(b.decl->element);
  const std::string zero(row ? row->memory_zero : d.type(DataType::U32)->memory_zero);
  const std::string index(local_index);
  if (mutant_active(Mutant::WorkgroupZeroFirstPassOnly)) {
    return "if (" + index + " < " + b.count + ") " + b.ident + "[" + index + "] = " + zero + ";";
  }
  return "for (" + std::string(d.type(DataType::U32)->value) + " i = " + index + "; i < " +
         b.count + "; i += " + std::to_string(invocations) + "u) " + b.ident + "[i] = " + zero +
         ";";
}

std::vector<std::string> barrier_statements(const Dialect& d) {
  std::vector<std::string> out(d.barrier.fences_before.begin(), d.barrier.fences_before.end());
  out.emplace_back(d.barrier.execution);
  out.insert(out.end(), d.barrier.fences_after.begin(), d.barrier.fences_after.end());
  return out;
}

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

}  // namespace vyre::clike
