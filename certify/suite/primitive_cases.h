// L1 cases for the layer-1 `primitive.*` ops: each op called through
// Expr::Call on every combination of the A1-A7 input archetypes.
#pragma once

#include <vector>

#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// One resizable case per inlinable op of the standard registry.
std::vector<SuiteCase> primitive_cases();

}  // namespace vyre::certify
