// The rule families of the validator, SPIRV-Tools style: one file each, one
// signature, called in order by validator.cc. Structural families come
// first; the tree families run only on a tree check_limits found walkable,
// because they recurse over it.
#pragma once

#include "spec/ir/op_registry.h"
#include "spec/ir/program.h"
#include "spec/text/text_format.h"
#include "spec/validate/buffer_table.h"
#include "spec/validate/diagnostic_sink.h"

namespace vyre {

/// What every family reads.
struct ValidationContext {
  const Program& program;
  const OpRegistry& ops;
  const BufferTable& buffers;
};

/// A rule family: reports every violation of its rules to the sink.
using RuleFamily = void (*)(const ValidationContext& context, DiagnosticSink& sink);

/// V001 V002 V024 V038 (buffers) V039: the buffer declarations.
void check_buffer_decls(const ValidationContext& context, DiagnosticSink& sink);
/// V003: the workgroup size.
void check_workgroup_size(const ValidationContext& context, DiagnosticSink& sink);
/// How big and deep the statement and expression tree is, as the recursive
/// tree families would walk it.
struct TreeSize {
  /// Statements plus expressions, a shared subexpression once per use (saturating).
  uint64_t nodes = 0;
  /// Deepest recursion of a walk: enclosing bodies plus expression depth.
  uint64_t depth = 0;

  /// True when the recursive families can walk the tree safely and quickly,
  /// limits or not: no deeper than the text format lets a file nest (the
  /// parser and destructors recurse that deep too) and no more nodes than a
  /// text may hold (kMaxTextNodes, ten times V019's limit). So every program
  /// read from text is checked in full, while a huge or DAG-shared tree built
  /// in code is not walked node by node.
  bool walkable() const { return depth <= kMaxTextNesting && nodes <= kMaxTextNodes; }
};

/// V018 V019 V030: size and depth limits, without recursion (explicit stacks),
/// so that any program, however deep, is measured safely. Returns the measure.
TreeSize check_limits(const ValidationContext& context, DiagnosticSink& sink);

/// V040: every required operand slot holds an expression.
void check_operands_present(const ValidationContext& context, DiagnosticSink& sink);
/// V004 V005 V009 V013 V014 V025: what Load, BufLen, Store and Atomic may target.
void check_buffer_access(const ValidationContext& context, DiagnosticSink& sink);
/// V007: InvocationId, WorkgroupId and LocalId axes.
void check_builtin_ids(const ValidationContext& context, DiagnosticSink& sink);
/// V006 V008 V011: variable scoping.
void check_scoping(const ValidationContext& context, DiagnosticSink& sink);
/// V031: statements after Return.
void check_reachability(const ValidationContext& context, DiagnosticSink& sink);
/// V029: the `expected` operand of atomics.
void check_atomic_shape(const ValidationContext& context, DiagnosticSink& sink);
/// V016 V017 V020 V034: calls against the op registry.
void check_calls(const ValidationContext& context, DiagnosticSink& sink);
/// V012 V015 V021 V022 V023 V026 V027 V028 V032 V033 V035 V036 V037 V038
/// (casts): the type checker.
void check_types(const ValidationContext& context, DiagnosticSink& sink);
/// V010: barriers under divergent control flow (uniformity analysis).
void check_barrier_uniformity(const ValidationContext& context, DiagnosticSink& sink);

}  // namespace vyre
