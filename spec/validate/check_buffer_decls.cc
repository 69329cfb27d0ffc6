// V001 V002 V024 V038 V039: each buffer declaration on its own and against
// the ones before it.
#include <string>
#include <unordered_set>

#include "spec/ir/uniform_limit.h"
#include "spec/validate/rule_families.h"

namespace vyre {

void check_buffer_decls(const ValidationContext& context, DiagnosticSink& sink) {
  std::unordered_set<std::string_view> names;
  std::unordered_set<uint32_t> bindings;
  const std::vector<BufferDecl>& buffers = context.program.buffers;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const BufferDecl& b = buffers[i];
    if (!names.insert(b.name).second) {
      sink.report_buffer(i, MessageId::DuplicateBufferName, {{"name", b.name}});
    }
    if (takes_binding(b.access) && !bindings.insert(b.binding).second) {
      sink.report_buffer(i, MessageId::DuplicateBinding,
                         {{"binding", std::to_string(b.binding)}, {"name", b.name}});
    }
    if (b.access == BufferAccess::Workgroup && b.count == 0) {
      sink.report_buffer(i, MessageId::WorkgroupCountZero, {{"name", b.name}});
    }
    if (!is_stable(b.element)) {
      sink.report_buffer(i, MessageId::PlannedBufferElement,
                         {{"name", b.name}, {"type", std::string(name_of(b.element))}});
    }
    const uint64_t bytes = uint64_t{b.count} * element_size(b.element);
    if (b.access == BufferAccess::Uniform && bytes > kMaxUniformBytes) {
      sink.report_buffer(i, MessageId::UniformBufferTooLarge,
                         {{"name", b.name}, {"bytes", std::to_string(bytes)}});
    }
  }
}

}  // namespace vyre
