// How many inputs a heavy property test draws. The sanitized build runs every
// instruction several times slower, and its purpose is memory and undefined
// behaviour errors, which a test's first inputs already reach on every code
// path it has; the optimised build still draws them all (CI runs both).
#pragma once

#include <algorithm>

namespace vyre {

/// True in a build with AddressSanitizer (GCC's macro, or clang's feature test).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

/// `inputs` in the optimised build; under the sanitizers an eighth of it, but
/// never fewer than `floor` (nor more than `inputs`).
constexpr int sanitized_share(int inputs, int floor = 25) {
  return kSanitizedBuild ? std::max(inputs / 8, std::min(inputs, floor)) : inputs;
}

}  // namespace vyre
