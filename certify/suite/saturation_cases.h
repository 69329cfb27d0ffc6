// L4 resource saturation (backend archetype X4): programs at the limits every
// Vulkan-class compute device guarantees (Vulkan 1.1 minimums: 2^27-byte
// storage buffers, 16 KiB of workgroup memory, 128 invocations per
// workgroup, 65535 workgroups per axis) with hand-computed expectations.
#pragma once

#include <vector>

#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// Every saturation case, ids "L4/saturation/...".
std::vector<SuiteCase> saturation_cases();

}  // namespace vyre::certify
