#include "certify/report/report_mutation.h"

#include "certify/report/mutation_record.h"
#include "certify/report/mutation_record_opencl.h"

namespace vyre::certify {
namespace {

/// The committed records, one per backend whose seeded bugs were measured.
constexpr MutationRecord kRecords[] = {
    {kMutationBackend, kMutantCatalogue, kMutantCatalogueVersion, kMutationDevice, kMutationLevel,
     kMutationRuns, kMutantsTotal, kMutantsKilled, kSurvivingMutants},
    {opencl_record::kMutationBackend, opencl_record::kMutantCatalogue,
     opencl_record::kMutantCatalogueVersion, opencl_record::kMutationDevice,
     opencl_record::kMutationLevel, opencl_record::kMutationRuns, opencl_record::kMutantsTotal,
     opencl_record::kMutantsKilled, opencl_record::kSurvivingMutants},
};

}  // namespace

std::span<const MutationRecord> mutation_records() {
  return kRecords;
}

const MutationRecord* mutation_record_of(std::string_view backend) {
  for (const MutationRecord& r : kRecords) {
    if (r.backend == backend) return &r;
  }
  return nullptr;
}

bool mutation_score_measured(std::string_view backend) {
  return mutation_record_of(backend) != nullptr;
}

std::optional<nlohmann::json> mutation_score_json(std::string_view backend) {
  const MutationRecord* r = mutation_record_of(backend);
  if (r == nullptr) return std::nullopt;
  nlohmann::json surviving = nlohmann::json::array();
  for (const SurvivingMutant& m : r->surviving) {
    surviving.push_back({{"name", m.name}, {"reason", m.reason}});
  }
  return nlohmann::json{{"catalogue", r->catalogue},
                        {"catalogue_version", r->catalogue_version},
                        {"device", r->device},
                        {"level", r->level},
                        {"runs", r->runs},
                        {"mutants", r->mutants},
                        {"killed", r->killed},
                        {"surviving", surviving},
                        {"summary", mutation_score_line(backend)}};
}

std::string mutation_score_line(std::string_view backend) {
  // A record is one backend's: its seeded bugs are in that backend's code,
  // so the score says nothing of another backend's.
  const MutationRecord* r = mutation_record_of(backend);
  if (r == nullptr) {
    std::string measured;
    for (const MutationRecord& each : kRecords) {
      measured += (measured.empty() ? "" : ", ") + std::string(each.backend);
    }
    return "mutation score: not measured for this backend (the suite's recorded scores are the " +
           measured + " backends')";
  }
  return "mutation score: " + std::to_string(r->killed) + "/" + std::to_string(r->mutants) +
         " seeded bugs killed on " + std::string(r->device) + " at " + std::string(r->level) +
         " --runs " + std::to_string(r->runs) + ", " + std::to_string(r->surviving.size()) +
         " survive (" + std::string(r->catalogue) + " v" + std::to_string(r->catalogue_version) +
         ")";
}

}  // namespace vyre::certify
