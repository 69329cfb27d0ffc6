// The largest uniform buffer the host ABI allows (pinned spec section 1,
// seed 003: "<= 64 KB"), written once for the validator, the reference and
// every backend that checks or declares uniform buffers.
#pragma once

#include <cstdint>

namespace vyre {

/// Largest Uniform buffer in bytes (SEMANTICS S1).
inline constexpr uint64_t kMaxUniformBytes = 65536;

}  // namespace vyre
