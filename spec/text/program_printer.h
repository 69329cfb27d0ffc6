// The canonical program printer, shared by print_program and print_case.
#pragma once

#include <string>

#include "spec/ir/program.h"

namespace vyre::text {

/// Appends the canonical text of `program`, every line indented by `indent`
/// levels of two spaces. Iterative, so any depth prints without recursion.
void append_program(std::string& out, const Program& program, int indent);

}  // namespace vyre::text
