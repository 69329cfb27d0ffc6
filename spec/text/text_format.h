// The vyre text format for programs and test cases (grammar: spec/text/GRAMMAR.md).
// Printing is canonical: parse(print(p)) == p for every program.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"
#include "spec/ir/test_case.h"
#include "spec/support/result.h"

namespace vyre {

/// Parses one program. Errors carry line:col and say what was expected.
Result<Program> parse_program(std::string_view text);

/// Canonical text of a program.
std::string print_program(const Program& program);

/// Parses one test case.
Result<TestCase> parse_case(std::string_view text);

/// Canonical text of a test case; parse_case(print_case(c)) reproduces it.
std::string print_case(const TestCase& test_case);

}  // namespace vyre
