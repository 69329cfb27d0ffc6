// V004 V005 V009 V013 V014 V025: what Load, BufLen, Store and Atomic may do
// to the buffer they name. An unknown buffer is reported once (V004) and
// nothing else is said about that access.
#include <string>

#include "spec/validate/rule_families.h"
#include "spec/validate/walk.h"

namespace vyre {
namespace {

void check_atomic_target(const Expr& at, const expr::Atomic& a, const BufferDecl& b,
                         DiagnosticSink& sink) {
  // A Workgroup buffer is writable but still has no atomics: V025, not V009.
  if (b.access == BufferAccess::Workgroup) {
    sink.report(at, MessageId::AtomicOnWorkgroup, {{"name", a.buffer}});
  } else if (!allows_atomics(b.access)) {
    sink.report(at, MessageId::AtomicNotReadWrite, {{"name", a.buffer}});
  }
  // Bytes elements are V013's; V014 covers every other non-U32 element.
  if (b.element == DataType::Bytes) {
    sink.report(at, MessageId::BytesElementAccess, {{"name", a.buffer}});
  } else if (b.element != DataType::U32) {
    sink.report(at, MessageId::AtomicNonU32Element,
                {{"name", a.buffer}, {"type", std::string(name_of(b.element))}});
  }
}

void check_expr(const Expr& e, const BufferTable& buffers, DiagnosticSink& sink) {
  if (const auto* x = e.as<expr::Load>()) {
    const BufferDecl* b = buffers.find(x->buffer);
    if (b == nullptr) {
      sink.report(e, MessageId::LoadUnknownBuffer, {{"name", x->buffer}});
    } else if (b->element == DataType::Bytes) {
      sink.report(e, MessageId::BytesElementAccess, {{"name", x->buffer}});
    }
  } else if (const auto* x = e.as<expr::BufLen>()) {
    if (buffers.find(x->buffer) == nullptr) {
      sink.report(e, MessageId::BufLenUnknownBuffer, {{"name", x->buffer}});
    }
  } else if (const auto* x = e.as<expr::Atomic>()) {
    const BufferDecl* b = buffers.find(x->buffer);
    if (b == nullptr) {
      sink.report(e, MessageId::AtomicUnknownBuffer, {{"name", x->buffer}});
    } else {
      check_atomic_target(e, *x, *b, sink);
    }
  }
}

void check_store(const Node& n, const node::Store& s, const BufferTable& buffers,
                 DiagnosticSink& sink) {
  const BufferDecl* b = buffers.find(s.buffer);
  if (b == nullptr) {
    sink.report(n, MessageId::StoreUnknownBuffer, {{"name", s.buffer}});
    return;
  }
  if (!is_writable(b->access)) sink.report(n, MessageId::StoreNotWritable, {{"name", s.buffer}});
  if (b->element == DataType::Bytes) {
    sink.report(n, MessageId::BytesElementAccess, {{"name", s.buffer}});
  }
}

}  // namespace

void check_buffer_access(const ValidationContext& context, DiagnosticSink& sink) {
  const BufferTable& buffers = context.buffers;
  for_each_node(context.program.entry, [&](const Node& n) {
    if (const auto* s = n.as<node::Store>()) check_store(n, *s, buffers, sink);
  });
  for_each_expr(context.program.entry, [&](const Expr& e) { check_expr(e, buffers, sink); });
}

}  // namespace vyre
