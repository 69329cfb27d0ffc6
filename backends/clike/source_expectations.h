// Test-only: what the lowering tests of the backends whose product is a
// kernel's source (OpenCL C, CUDA C) check it with. Included by tests alone
// (it includes GoogleTest).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "backends/clike/lowering_refusal.h"
#include "spec/support/result.h"

namespace vyre::clike {

/// The source of `lowered`; the calling test fails, and gets "", when the
/// program did not lower.
template <typename Interface>
std::string source_or_test_failure(const Result<LoweredSource<Interface>>& lowered) {
  EXPECT_TRUE(lowered.ok()) << (lowered.ok() ? "" : lowered.error().message);
  return lowered.ok() ? lowered->source : "";
}

/// Expects `snippet` in `source`, showing the source when it is missing.
inline void expect_snippet(const std::string& source, const std::string& snippet) {
  EXPECT_NE(source.find(snippet), std::string::npos) << "missing:\n  " << snippet << "\nin:\n"
                                                     << source;
}

}  // namespace vyre::clike
