// Seeded bugs (mutants.def) and the hooks that switch them on. Only the
// test-only libraries vyre_clike_mutants, vyre_vulkan_mutants and
// vyre_opencl_mutants are compiled with VYRE_MUTANTS; in every other build the
// hooks are constant false and the compiler drops the mutated code, so the
// shipped backends carry no trace of it.
#pragma once

#include <cstdint>
#include <string_view>

namespace vyre {

/// One seeded bug of the catalogue, or None.
enum class Mutant : uint8_t {
  None,
#define VYRE_MUTANT(name, family, deterministic, where, description) name,
#include "backends/mutants/mutants.def"
#undef VYRE_MUTANT
};

#ifdef VYRE_MUTANTS
/// Whether `m` is the mutant selected for this process (env VYRE_MUTANT).
bool mutant_active(Mutant m);
/// Whether `m` is selected and this call is its unlucky one (1 in 16 calls).
bool mutant_fires(Mutant m);
/// Whether the selected mutant lives on the staging path, which is then taken
/// even where device memory is host-visible (lavapipe), so that it can be seen.
bool mutant_forces_staging();
#else
/// Always false outside the test-only mutant build.
constexpr bool mutant_active(Mutant) {
  return false;
}
/// Always false outside the test-only mutant build.
constexpr bool mutant_fires(Mutant) {
  return false;
}
/// Always false outside the test-only mutant build.
constexpr bool mutant_forces_staging() {
  return false;
}
#endif

}  // namespace vyre
