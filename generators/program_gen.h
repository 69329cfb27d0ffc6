// RapidCheck generators of structurally arbitrary IR: every expression and
// statement kind, names that collide, need quoting or are empty, planned
// types, out-of-range axes, zero sizes. Nothing is made valid on purpose, so
// the text format, the validator and anything else that must accept or
// diagnose every IR value see all of them. Leaves come first in every choice,
// so counterexamples shrink towards small, plain programs.
#pragma once

#include <iosfwd>
#include <string>

#include <rapidcheck.h>

#include "spec/ir/program.h"
#include "spec/ir/test_case.h"

namespace vyre {

/// A name: mostly from a small pool (so references meet declarations), and
/// sometimes a reserved word, the empty string or arbitrary bytes.
rc::Gen<std::string> arbitrary_name();

/// An expression of at most `depth` levels below the root.
rc::Gen<ExprPtr> arbitrary_expr(int depth);

/// A statement whose bodies nest at most `depth` levels; its expressions are
/// at most `expr_depth` deep.
rc::Gen<Node> arbitrary_node(int depth, int expr_depth);

/// A structurally arbitrary program. Half are ordinary, nesting growing with
/// RapidCheck's size (flat at size 0); from size 1 on, a quarter are deep
/// (up to 100 nested bodies around an expression up to 150 deep) and a
/// quarter wide (up to 128 statements and a call of up to 64 arguments), all
/// within the text format's limits.
rc::Gen<Program> arbitrary_program();

/// Arbitrary raw buffer bytes: empty, one repeated byte, whole u32 words or
/// any length.
rc::Gen<ByteBuffer> arbitrary_bytes();

/// A structurally arbitrary test case: any program, grid, inputs and
/// expectation (none, empty or some buffers).
rc::Gen<TestCase> arbitrary_test_case();

/// Shows a program in RapidCheck counterexamples (its canonical text).
void showValue(const Program& program, std::ostream& os);
/// Shows a test case in RapidCheck counterexamples (its canonical text).
void showValue(const TestCase& test_case, std::ostream& os);

}  // namespace vyre
