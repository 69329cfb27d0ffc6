// Where rule families put what they find. Each diagnostic is keyed by the
// program-order position of its node, so the validator returns diagnostics in
// program order whichever family found them, and families stay independent.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <unordered_map>
#include <vector>

#include "spec/ir/program.h"
#include "spec/validate/messages.h"
#include "spec/validate/validator.h"

namespace vyre {

/// Program-order position of every buffer, statement and expression: buffers,
/// then the workgroup size, then program-wide facts, then the entry body in
/// preorder (a statement before its operands, operands before nested bodies).
class ProgramIndex {
 public:
  /// Positions of the buffers and program-wide facts; the tree is numbered
  /// only by number_tree().
  explicit ProgramIndex(const Program& program);

  /// Numbers every statement and expression; call only on a tree check_limits
  /// found walkable, since it recurses.
  void number_tree();

  /// The program being numbered.
  const Program& program() const { return program_; }
  /// Position of buffer declaration `i`.
  uint64_t of_buffer(size_t i) const { return i; }
  /// Position of the workgroup size, after every buffer.
  uint64_t of_workgroup_size() const { return buffer_count_; }
  /// Position of program-wide facts (V019), before the entry body.
  uint64_t of_program() const { return buffer_count_ + 1; }
  /// Position of a statement or expression; of_program() before number_tree().
  uint64_t of(const void* tree_node) const;

 private:
  const Program& program_;
  uint64_t buffer_count_;
  std::unordered_map<const void*, uint64_t> tree_;
};

/// Collects diagnostics from the rule families.
class DiagnosticSink {
 public:
  explicit DiagnosticSink(const ProgramIndex& index) : index_(index) {}

  /// A problem located at a statement.
  void report(const Node& at, MessageId id, std::initializer_list<MessageArg> args = {});
  /// A problem located at an expression.
  void report(const Expr& at, MessageId id, std::initializer_list<MessageArg> args = {});
  /// A problem with buffer declaration `i` of the program.
  void report_buffer(size_t i, MessageId id, std::initializer_list<MessageArg> args = {});
  /// A problem with the workgroup size.
  void report_workgroup_size(MessageId id, std::initializer_list<MessageArg> args = {});
  /// A problem with the program as a whole, located at the statement `at`
  /// where it shows (when that has a location) or else at `program`.
  void report_program(MessageId id, const Node* at = nullptr);

  /// Number of diagnostics so far.
  size_t size() const { return found_.size(); }
  /// Every diagnostic, in program order; diagnostics at one node keep the
  /// order in which the families found them.
  std::vector<Diagnostic> take_in_program_order();

 private:
  struct Found {
    uint64_t position;
    Diagnostic diagnostic;
  };
  void add(uint64_t position, SourceLoc loc, MessageId id, std::initializer_list<MessageArg> args);

  const ProgramIndex& index_;
  std::vector<Found> found_;
};

}  // namespace vyre
