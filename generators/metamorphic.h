// Metamorphic variants (equivalence modulo inputs): semantics-preserving
// rewrites of a test case that must give the same output bytes on every
// backend for the case's inputs. A backend that disagrees with itself across
// variants has a bug even where no reference exists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/ir/test_case.h"

namespace vyre {

/// One rewritten case and the rewrite that made it.
struct MetamorphicVariant {
  /// "dead_code", "identity", "outline", "inline", "peel", "reorder" or "workgroup_shape".
  std::string rewrite;
  TestCase test_case;
};

/// Variants of `c` (a valid, conforming case), at most one per rewrite, each
/// at a site drawn from `seed`: dead code (junk stores, or a `return` where
/// one keeps the program valid) behind a condition false for these inputs; an identity around a U32
/// operand (x + 0, x ^ k ^ k, ...); a subexpression outlined into a let; a pure let inlined into
/// its uses; a loop's first iteration peeled; two independent adjacent statements swapped; and, for
/// programs that do not depend on the workgroup, another workgroup shape with the same invocations.
/// A rewrite with no valid site is left out.
std::vector<MetamorphicVariant> metamorphic_variants(const TestCase& c, uint64_t seed);

}  // namespace vyre
