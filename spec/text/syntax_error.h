// The parser's private way out: a SyntaxError unwinds from wherever the text
// stops making sense to parse_program/parse_case, which return its Error. It
// never leaves the library.
#pragma once

#include <string>

#include "spec/support/result.h"

namespace vyre::text {

/// A parse failure on its way to the public entry point.
struct SyntaxError {
  Error error;
};

/// Throws SyntaxError{message, loc}.
[[noreturn]] inline void fail_at(SourceLoc loc, std::string message) {
  throw SyntaxError{Error{std::move(message), loc}};
}

}  // namespace vyre::text
