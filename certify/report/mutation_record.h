// The suite's measured mutation score: the one committed record of how many of
// the Vulkan backend's seeded bugs (backends/vulkan/mutants/mutants.def) the
// suite rejects. Reports carry it (report.json "mutation_score", report.md);
// `ctest -L mutation` (certify/mutation/mutation_test.cmake) measures the score
// again and fails when this record no longer matches, so it cannot go stale.
// The test parses this file: keep each constant on one line.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace vyre::certify {

/// A mutant the suite does not reject, and why that is acceptable.
struct SurvivingMutant {
  std::string_view name;
  std::string_view reason;
};

/// The catalogue measured (its name and version).
inline constexpr std::string_view kMutantCatalogue = "vulkan-mutants";
inline constexpr uint32_t kMutantCatalogueVersion = 2;
/// Where and how the score was measured.
inline constexpr std::string_view kMutationDevice = "llvmpipe (lavapipe)";
inline constexpr std::string_view kMutationLevel = "L3";
inline constexpr uint32_t kMutationRuns = 2;
/// The score: mutants in the catalogue, and those the suite rejected.
inline constexpr uint32_t kMutantsTotal = 64;
inline constexpr uint32_t kMutantsKilled = 54;

/// The mutants that survive on that device, each with its reason (equivalent
/// there, not reachable by the certification run yet, or, family l5, missed
/// by the hand-written levels on purpose and killed by L5's random programs).
inline constexpr SurvivingMutant kSurvivingMutants[] = {
    {"ShlCountUnmasked",
     "equivalent on x86 (lavapipe): the CPU masks shift counts to 5 bits as the spec does; run on "
     "a GPU that does not"},
    {"BarrierWithoutMemoryFences",
     "equivalent on lavapipe: a workgroup runs on one CPU thread, so memory is coherent without "
     "fences; needs a GPU"},
    {"StagingUploadBarrierDropped",
     "equivalent on lavapipe: it executes a command buffer in order, so a missing "
     "transfer-to-compute barrier cannot show; needs a GPU (H100)"},
    {"BatchSlotOfWraps",
     "only batches of over 256 runs reuse slot 0, and the certification's batches at --runs 2 "
     "hold 2"},
    {"CompareIgnoresLastWord",
     "it only hides differences between runs, so it shows only with another nondeterministic "
     "bug"},
    {"CastOfCastFolded", "missed by L1-L4 by design: killed by L5 (l5_catches test)"},
    {"SelectLazyUnlessAtomicArm", "missed by L1-L4 by design: killed by L5 (l5_catches test)"},
    {"LoopBoundReevaluated", "missed by L1-L4 by design: killed by L5 (l5_catches test)"},
    {"ReturnInLoopUnderIfBreaks", "missed by L1-L4 by design: killed by L5 (l5_catches test)"},
    {"LoadReusedAcrossStore", "missed by L1-L4 by design: killed by L5 (l5_catches test)"},
};

/// kSurvivingMutants as a span.
inline constexpr std::span<const SurvivingMutant> surviving_mutants() {
  return kSurvivingMutants;
}

}  // namespace vyre::certify
