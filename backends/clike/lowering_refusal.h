// What every lowering does before it writes code, and the whole lowering of
// the languages whose product is the kernel's source. A lowering runs only on
// valid programs (an invalid one is an error listing each diagnostic) that
// its language can write (a valid one past the language's own limits is an
// error the backend reports as NotSupported rather than CompileError).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "backends/clike/entry_interface.h"
#include "spec/ir/op_registry.h"
#include "spec/ir/program.h"
#include "spec/support/result.h"

namespace vyre::clike {

/// Why a language cannot write a valid `program` whatever the device (a
/// size past its int range, ...); nullopt when it can.
using LanguageLimits = std::optional<std::string> (*)(const Program& program);

/// The error a lowering returns before writing any code: for an invalid
/// program "invalid program:" and one line per diagnostic (rule id:
/// message), else the message of `limits`; nullopt when `program` may be
/// lowered.
std::optional<Error> lowering_refusal(const Program& program, LanguageLimits limits);

/// Whether a failed lowering of `program` was refused only by the language:
/// the program is valid and `limits` refuses it. A backend reports that as
/// NotSupported, and any other failure (an invalid program, a bug in the
/// lowering) as CompileError.
bool refused_only_by_limits(const Program& program, LanguageLimits limits);

/// A program lowered to one kernel's source and the interface it was
/// written for.
template <typename Interface>
struct LoweredSource {
  std::string source;
  Interface iface;
};

/// A language's emitter: the source of a valid program for `iface`, or an
/// Error naming a node it cannot lower.
template <typename Interface>
using SourceEmitter = Result<std::string> (*)(const Program& program, const Interface& iface,
                                              const OpRegistry& ops);

/// Refuses `program` as lowering_refusal says, else writes its source with
/// `emit` for the interface of `program` (entry_interface_of).
template <typename Interface>
Result<LoweredSource<Interface>> lower_to_source(const Program& program,
                                                 uint32_t loop_iteration_budget,
                                                 LanguageLimits limits,
                                                 SourceEmitter<Interface> emit) {
  if (std::optional<Error> refused = lowering_refusal(program, limits)) return *refused;
  LoweredSource<Interface> lowered{"", {entry_interface_of(program, loop_iteration_budget)}};
  Result<std::string> source = emit(program, lowered.iface, OpRegistry::standard());
  if (!source.ok()) return source.error();
  lowered.source = std::move(*source);
  return lowered;
}

}  // namespace vyre::clike
