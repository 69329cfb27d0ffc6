// The suite's mutation scores (mutation_record.h, mutation_record_opencl.h) as
// reports show them: a separate member of report.json, "mutation_score", and
// a line of report.md, for a report of a backend whose seeded bugs were
// measured.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "certify/report/mutation_record.h"

namespace vyre::certify {

/// One backend's committed mutation record (mutation_record.h for vulkan,
/// mutation_record_opencl.h for opencl), as reports show it.
struct MutationRecord {
  std::string_view backend;
  std::string_view catalogue;
  uint32_t catalogue_version = 0;
  std::string_view device;
  std::string_view level;
  uint32_t runs = 0;
  uint32_t mutants = 0;
  uint32_t killed = 0;
  std::span<const SurvivingMutant> surviving;
};

/// Every committed record.
std::span<const MutationRecord> mutation_records();

/// The record of `backend` (its name as a report names it); null when its
/// seeded bugs were not measured.
const MutationRecord* mutation_record_of(std::string_view backend);

/// Whether the committed record measured `backend` (its name as the report
/// names it): only then does a report carry the score.
bool mutation_score_measured(std::string_view backend);

/// report.json's "mutation_score" for a report of `backend`: the committed
/// record, member by member; nullopt when it was not measured for `backend`.
std::optional<nlohmann::json> mutation_score_json(std::string_view backend);

/// One line, e.g. "mutation score: 41/58 seeded bugs killed on llvmpipe
/// (lavapipe) at L4 --runs 2, 17 survive (vulkan-mutants v1)", or for another
/// backend "mutation score: not measured for this backend (...)".
std::string mutation_score_line(std::string_view backend);

}  // namespace vyre::certify
