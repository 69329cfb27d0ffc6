// The vyre text format for programs and test cases (grammar: spec/text/GRAMMAR.md).
// Printing is canonical: parse(print(p)) == p for every program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"
#include "spec/ir/test_case.h"
#include "spec/support/result.h"

namespace vyre {

/// Largest text parse_program and parse_case accept (32 MiB); past it they fail
/// at once, so memory and time stay bounded.
inline constexpr size_t kMaxTextBytes = size_t{32} << 20;

/// Deepest nesting of statement bodies plus expressions the parser accepts.
/// Far above the validator's limits (V018: 64, V030: 128) so that it can report
/// them, and low enough that the recursive parser, printer, equality and
/// destructors stay well inside the stack.
inline constexpr uint32_t kMaxTextNesting = 512;

/// Most statements plus expressions one text may hold: ten times V019's limit
/// (100000), so the validator can report V019 and still check the rest, while
/// a 32 MiB text of tiny expressions stops at about 150 MB instead of 2.4 GB.
inline constexpr uint32_t kMaxTextNodes = 1000000;

/// Most bytes of buffer data (inputs and expectations together) one case may
/// describe (64 MiB), so `zeros 4000000000` is an error, not an allocation.
inline constexpr size_t kMaxCaseDataBytes = size_t{64} << 20;

/// Parses one program. Errors carry line:col and say what was expected.
Result<Program> parse_program(std::string_view text);

/// Canonical text of a program.
std::string print_program(const Program& program);

/// Parses one test case.
Result<TestCase> parse_case(std::string_view text);

/// Canonical text of a test case; parse_case(print_case(c)) reproduces it.
std::string print_case(const TestCase& test_case);

}  // namespace vyre
