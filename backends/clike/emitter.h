// The shared lowering of a vyre Program's entry to C-like statements: scopes,
// temporaries, evaluation order, inlining of Calls. Every expression is
// evaluated into its own temporary in exactly the order SEMANTICS S4 pins
// (three-address form), so the language's own evaluation rules never matter.
// What a statement decides is written here once; how it is spelled comes
// from the Dialect, and how a buffer is reached from the BufferAccessor.
#pragma once

#include <cstdint>
#include <string>

#include "backends/clike/buffer_accessor.h"
#include "backends/clike/dialect.h"
#include "spec/ir/op_registry.h"
#include "spec/support/result.h"

namespace vyre::clike {

/// The statements of `program`'s entry body, each indented one level, led by
/// the loop iteration counter when `loop_iteration_budget` is not 0. The
/// program must be valid; a node the emitter cannot lower (validation rejects
/// every such node) is an Error naming it. `buffers` records what the body
/// uses, for the backend's declarations.
Result<std::string> emit_body(const Program& program, const Dialect& dialect,
                              BufferAccessor& buffers, uint32_t loop_iteration_budget,
                              const OpRegistry& ops);

}  // namespace vyre::clike
