// The suite's measured mutation score: the one committed record of how many of
// the Vulkan backend's seeded bugs (backends/mutants/mutants.def: the shared
// lowering's rows and Vulkan's own) the suite rejects, keyed by that backend's
// name. The OpenCL backend's record is mutation_record_opencl.h. Reports of
// that backend carry it (report.json "mutation_score", report.md,
// report.html); others say the score is not measured for them;
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

/// The backend whose mutants were measured: the record is that backend's
/// score, and a report of any other backend carries none.
inline constexpr std::string_view kMutationBackend = "vulkan";
/// The catalogue measured (its name and version).
inline constexpr std::string_view kMutantCatalogue = "vulkan-mutants";
inline constexpr uint32_t kMutantCatalogueVersion = 3;
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
     "equivalent on both devices measured: the emitted `a << b` is undefined in SPIR-V for b >= "
     "32, and both x86 (lavapipe) and NVIDIA's compiler on the H100 mask the count as the spec "
     "does (H100: CERTIFIED at L3, 100 runs, with the L1 shl table's counts 32 and 33)"},
    {"BarrierWithoutMemoryFences",
     "equivalent on both devices measured: lavapipe runs a workgroup on one CPU thread, and the "
     "H100's workgroup barrier orders shared memory by itself (H100: CERTIFIED at L3, 100 runs)"},
    {"StagingUploadBarrierDropped",
     "equivalent on both devices measured: lavapipe never stages, and on the H100 the upload "
     "copies finished before the first dispatch read them in every run (CERTIFIED at L3, 100 "
     "runs); a GPU that overlaps them would show it"},
    {"BatchSlotOfWraps",
     "at --runs 2 no slot wraps; at the default 100 runs a wrapped run lands in run 0's slot, "
     "which on lavapipe (host comparison) only hides a difference between runs, and on the H100 "
     "(device comparison) crashes the run, killing it there"},
    {"CompareIgnoresLastWord",
     "it only hides a difference between runs in an output's last word, so it shows only with "
     "another, nondeterministic bug (H100, which compares on the device: CERTIFIED at L3, 100 "
     "runs)"},
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
