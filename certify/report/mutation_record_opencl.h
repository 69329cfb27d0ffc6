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
/// Where and how the score is measured: vyre_certify_mutation_catalogue_cl
/// runs the whole catalogue at this level and runs.
inline constexpr std::string_view kMutationDevice = "PoCL (pthread, CPU)";
inline constexpr std::string_view kMutationLevel = "L3";
inline constexpr uint32_t kMutationRuns = 2;
/// The score: mutants in the catalogue, and those the suite rejected. Not yet
/// measured whole (about an hour on PoCL): 0 killed until the first run of
/// vyre_certify_mutation_catalogue_cl, which fails until these match.
inline constexpr uint32_t kMutantsTotal = 50;
inline constexpr uint32_t kMutantsKilled = 0;

/// The mutants that survive on that device, each with its reason.
inline constexpr SurvivingMutant kSurvivingMutants[] = {
    {"ShlCountUnmasked",
     "equivalent in OpenCL C: a shift count is taken modulo the width (OpenCL C 1.2, 6.3 j)"},
    {"BarrierWithoutMemoryFences",
     "equivalent in OpenCL C: its one barrier statement carries the fences"},
};

}  // namespace vyre::certify::opencl_record
