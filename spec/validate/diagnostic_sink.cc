#include "spec/validate/diagnostic_sink.h"

#include <algorithm>

#include "spec/validate/operands.h"

namespace vyre {
namespace {

void number_expr(const ExprPtr& e, std::unordered_map<const void*, uint64_t>& out, uint64_t& next) {
  if (e == nullptr) return;
  // A shared subexpression keeps the position of its first occurrence.
  out.try_emplace(e.get(), next++);
  for (size_t i = 0; i < operand_count(*e); ++i) number_expr(operand(*e, i), out, next);
}

void number_body(const Body& body, std::unordered_map<const void*, uint64_t>& out, uint64_t& next) {
  for (const Node& n : body) {
    out.try_emplace(&n, next++);
    for (size_t i = 0; i < operand_count(n); ++i) number_expr(operand(n, i), out, next);
    for (size_t i = 0; i < body_count(n); ++i) number_body(vyre::body(n, i), out, next);
  }
}

}  // namespace

ProgramIndex::ProgramIndex(const Program& program)
    : program_(program), buffer_count_(program.buffers.size()) {}

void ProgramIndex::number_tree() {
  uint64_t next = of_program() + 1;
  number_body(program_.entry, tree_, next);
}

uint64_t ProgramIndex::of(const void* tree_node) const {
  const auto it = tree_.find(tree_node);
  return it == tree_.end() ? of_program() : it->second;
}

void DiagnosticSink::report(const Node& at, MessageId id, std::initializer_list<MessageArg> args) {
  add(index_.of(&at), at.loc, id, args);
}
void DiagnosticSink::report(const Expr& at, MessageId id, std::initializer_list<MessageArg> args) {
  add(index_.of(&at), at.loc, id, args);
}
void DiagnosticSink::report_buffer(size_t i, MessageId id, std::initializer_list<MessageArg> args) {
  add(index_.of_buffer(i), index_.program().buffers[i].loc, id, args);
}
void DiagnosticSink::report_workgroup_size(MessageId id, std::initializer_list<MessageArg> args) {
  add(index_.of_workgroup_size(), index_.program().workgroup_size_loc, id, args);
}
void DiagnosticSink::report_program(MessageId id, const Node* at) {
  const SourceLoc loc = at != nullptr && at->loc.known() ? at->loc : index_.program().loc;
  add(index_.of_program(), loc, id, {});
}

void DiagnosticSink::add(uint64_t position, SourceLoc loc, MessageId id,
                         std::initializer_list<MessageArg> args) {
  found_.push_back({position, Diagnostic{rule_of(id), render(id, args), loc}});
}

std::vector<Diagnostic> DiagnosticSink::take_in_program_order() {
  std::stable_sort(found_.begin(), found_.end(),
                   [](const Found& a, const Found& b) { return a.position < b.position; });
  std::vector<Diagnostic> out;
  out.reserve(found_.size());
  for (Found& f : found_) out.push_back(std::move(f.diagnostic));
  found_.clear();
  return out;
}

}  // namespace vyre
