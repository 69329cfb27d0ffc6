// V031: a statement after Return in the same body can never run.
#include "spec/validate/rule_families.h"
#include "spec/validate/walk.h"

namespace vyre {
namespace {

void check_body(const Body& body, DiagnosticSink& sink) {
  for (size_t i = 0; i + 1 < body.size(); ++i) {
    if (body[i].as<node::Return>() != nullptr) {
      // Reported once per body, at the first statement that cannot run.
      sink.report(body[i + 1], MessageId::UnreachableAfterReturn);
      return;
    }
  }
}

}  // namespace

void check_reachability(const ValidationContext& context, DiagnosticSink& sink) {
  check_body(context.program.entry, sink);
  for_each_node(context.program.entry, [&sink](const Node& n) {
    for (size_t i = 0; i < body_count(n); ++i) check_body(body(n, i), sink);
  });
}

}  // namespace vyre
