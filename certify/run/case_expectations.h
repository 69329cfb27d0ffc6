// What the reference says each run of a case must produce, computed before
// (and, through the PreparationPool, beside) the backend's runs: every variant
// of a single-dispatch case is interpreted once, and a host-driven case runs
// once on the reference backend.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "certify/run/case_runner.h"

namespace vyre::certify {

/// One way of running a single-dispatch case.
struct Variant {
  std::string label;
  TestCase test_case;
  /// Outputs start as the case gives them (not poisoned), so the case's own
  /// byte expectation, when it has one, applies.
  bool outputs_as_given = true;
};

/// What tells the compiled programs of a case's variants apart: the
/// variants share one program up to the workgroup size, each in an encoding.
using CompileKey = std::pair<std::array<uint32_t, 3>, Encoding>;

/// The key of variant `tc`'s program.
inline CompileKey compile_key(const TestCase& tc) {
  return {tc.program.workgroup_size, tc.encoding};
}

/// Why the suite, not the backend, is at fault for a case: the reference
/// rejects it, finds it non-conforming, or disagrees with its expectation.
struct InvalidCase {
  std::string message;
  std::string variant;
  BufferSet inputs;
  BufferSet expected;
  BufferSet observed;
};

/// The expectation of one variant: the variant's case expecting what the
/// judge compares against (the reference's bytes, or the case's canonical
/// expectation), or why the case is invalid.
struct VariantExpectation {
  Variant variant;
  std::optional<TestCase> expectation;
  std::optional<InvalidCase> invalid;
};

/// Everything prepared for one case before its runs: what the reference
/// says they must produce and, where compiled ahead (preparation_pool.h),
/// the backend's programs.
struct CaseExpectations {
  /// Single-dispatch cases: one entry per variant, in order, stopping at the
  /// first invalid one.
  std::vector<VariantExpectation> variants;
  /// Host-driven cases: the reference backend's canonical outputs, or why
  /// the case is invalid.
  std::optional<BufferSet> host_outputs;
  std::optional<InvalidCase> host_invalid;
  /// Time spent in the reference.
  uint64_t reference_us = 0;
  /// Single-dispatch cases compiled ahead: the backend's compile outcome per
  /// program of the variants (prepared too); empty when the run compiles
  /// them itself.
  std::map<CompileKey, CompileOutcome> compiled;
  /// Time spent compiling and preparing them, on the worker.
  uint64_t compile_us = 0;
};

/// The variants of `d`: its workgroup sizes (1, 64, preferred when
/// resizable), outputs as given and poisoned, an over-dispatched grid, and
/// the case in one more encoding (DispatchCase::encoding_variant) or in every
/// other one (DispatchCase::every_encoding).
std::vector<Variant> variants_of(const DispatchCase& d, const CaseRunOptions& options);

/// Computes `c`'s expectations on the reference (interpreter, or for a
/// host-driven case options.reference / a fresh reference backend). Pure:
/// safe to call for several cases on several threads at once.
CaseExpectations compute_expectations(const SuiteCase& c, const CaseRunOptions& options);

}  // namespace vyre::certify
