// Deriving a program's entry interface.
#include "backends/clike/entry_interface.h"

#include "spec/ir/host_abi.h"

#include <algorithm>
#include <cstdint>

namespace vyre::clike {
namespace {

bool has_loop(const Body& body) {
  return std::any_of(body.begin(), body.end(), [](const Node& n) {
    if (n.as<node::Loop>() != nullptr) return true;
    if (const auto* b = n.as<node::Block>()) return has_loop(b->body);
    if (const auto* i = n.as<node::If>()) return has_loop(i->then_body) || has_loop(i->otherwise);
    return false;
  });
}

}  // namespace

uint64_t EntryInterface::workgroup_invocations() const {
  return vyre::axis_product(workgroup_size).value_or(UINT64_MAX);
}

EntryInterface entry_interface_of(const Program& program, uint32_t loop_iteration_budget) {
  EntryInterface iface;
  std::vector<const BufferDecl*> bound;
  for (const BufferDecl& decl : program.buffers) {
    if (takes_binding(decl.access)) {
      bound.push_back(&decl);
    } else {
      iface.workgroup_memory_bytes += uint64_t{decl.count} * element_size(decl.element);
    }
  }
  std::stable_sort(bound.begin(), bound.end(), [](const BufferDecl* a, const BufferDecl* b) {
    return a->binding != b->binding ? a->binding < b->binding : a->name < b->name;
  });
  for (const BufferDecl* decl : bound) {
    iface.buffers.push_back({decl->name, decl->access, decl->element, decl->count});
  }
  iface.workgroup_size = program.workgroup_size;
  iface.has_control_buffer = has_loop(program.entry);
  iface.loop_iteration_budget = iface.has_control_buffer ? loop_iteration_budget : 0;
  return iface;
}

}  // namespace vyre::clike
