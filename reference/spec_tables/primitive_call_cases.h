// The layer-1 `primitive.*` ops as cases: each op called through Expr::Call
// on every combination of pinned spec section 8's arithmetic archetypes. Their
// expected bytes are not hand-written: the reference interpreter gives them,
// and its primitives are checked against an independent implementation
// (reference/ops). The certification suite (L1) and the Vulkan parity test
// both run these.
#pragma once

#include <vector>

#include "spec/ir/test_case.h"

namespace vyre::reference {

/// One case per inlinable op of the standard registry, named by its op id,
/// `expected` unset. Each guards on invocation_id.x < buflen(out), so it may
/// be resized and over-dispatched on x.
std::vector<TestCase> primitive_call_cases();

}  // namespace vyre::reference
