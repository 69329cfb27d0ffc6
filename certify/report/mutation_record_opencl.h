// The OpenCL backend's measured mutation score: the committed record of how
// many of its seeded bugs (backends/mutants/mutants.def: the shared lowering's
// rows and OpenCL's own) the suite rejects. `ctest -L mutation`
// (vyre_certify_mutation_catalogue_cl) measures it again and fails when
// this record no longer matches. The Vulkan backend's record is
// mutation_record.h. The test parses this file: keep each constant on one line.
#pragma once

#include <cstdint>
#include <string_view>

#include "certify/report/mutation_record.h"

namespace vyre::certify::opencl_record {

/// The backend whose mutants were measured.
inline constexpr std::string_view kMutationBackend = "opencl";
/// The catalogue measured (its name and version).
inline constexpr std::string_view kMutantCatalogue = "opencl-mutants";
inline constexpr uint32_t kMutantCatalogueVersion = 3;
/// Where and how the score was measured: every mutant of the catalogue
/// certified at this level and runs (vyre_certify_mutation_catalogue_cl runs
/// the same), on PoCL's CPU device. Measured on the GPU machine's 16-core host
/// (PoCL 5.0, static build of vyre-certify-mutants, ten mutants at a time:
/// 135 s for the catalogue, the unmutated backend CERTIFIED at L3 in 43 s);
/// PoCL 3.1 on a 2-core machine takes about an hour for the same.
inline constexpr std::string_view kMutationDevice = "PoCL 5.0 (cpu, x86-64 AVX-512)";
inline constexpr std::string_view kMutationLevel = "L3";
inline constexpr uint32_t kMutationRuns = 2;
/// The score: mutants in the catalogue, and those the suite rejected.
inline constexpr uint32_t kMutantsTotal = 50;
inline constexpr uint32_t kMutantsKilled = 40;

/// The mutants that survive on that device, each with its reason.
inline constexpr SurvivingMutant kSurvivingMutants[] = {
    {"ShlCountUnmasked",
     "equivalent in OpenCL C: a shift count is taken modulo the width (OpenCL C 1.2, 6.3 j)"},
    {"BarrierWithoutMemoryFences",
     "equivalent in OpenCL C: its one barrier statement carries the fences"},
    {"U32LiteralWithoutSuffix",
     "survives L1-L3 on PoCL: in OpenCL C an unsuffixed literal past INT_MAX is a long (C99 "
     "6.4.4.1), which GLSL refuses (killing it on Vulkan); no L1-L3 case shows the wider type in "
     "its 32-bit results"},
    {"StoreGuardOffByOne",
     "the store at index == count lands past the buffer, where on PoCL (a CPU device) nothing the "
     "case reads back lies; the case that kills it on Vulkan, "
     "L2/exec/S11/store_past_workgroup_buffer, passes"},
    {"ReadbackWholeWordsOnly",
     "survives L1-L3 on PoCL: no case there checks a partial last word of a read-write output"},
    {"CastOfCastFolded", "missed by L1-L4 by design: killed by L5 on Vulkan (l5_catches test)"},
    {"SelectLazyUnlessAtomicArm",
     "missed by L1-L4 by design: killed by L5 on Vulkan (l5_catches test)"},
    {"LoopBoundReevaluated", "missed by L1-L4 by design: killed by L5 on Vulkan (l5_catches test)"},
    {"ReturnInLoopUnderIfBreaks",
     "missed by L1-L4 by design: killed by L5 on Vulkan (l5_catches test)"},
    {"LoadReusedAcrossStore",
     "missed by L1-L4 by design: killed by L5 on Vulkan (l5_catches test)"},
};

}  // namespace vyre::certify::opencl_record
