// The rule families of the validator, SPIRV-Tools style: one file each, one
// signature, called in order by validator.cc. Structural families come
// first; the tree families run only once check_limits found nothing, because
// they recurse over the tree.
#pragma once

#include "spec/ir/op_registry.h"
#include "spec/ir/program.h"
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
/// V018 V019 V030: size and depth limits, without recursion (explicit stacks),
/// so that any program, however deep, is measured safely.
void check_limits(const ValidationContext& context, DiagnosticSink& sink);

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
