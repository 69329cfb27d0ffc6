#include "certify/report/report_mutation.h"

#include "certify/report/mutation_record.h"

namespace vyre::certify {

bool mutation_score_measured(std::string_view backend) {
  return backend == kMutationBackend;
}

std::optional<nlohmann::json> mutation_score_json(std::string_view backend) {
  if (!mutation_score_measured(backend)) return std::nullopt;
  nlohmann::json surviving = nlohmann::json::array();
  for (const SurvivingMutant& m : surviving_mutants()) {
    surviving.push_back({{"name", m.name}, {"reason", m.reason}});
  }
  return nlohmann::json{{"catalogue", kMutantCatalogue},
                        {"catalogue_version", kMutantCatalogueVersion},
                        {"device", kMutationDevice},
                        {"level", kMutationLevel},
                        {"runs", kMutationRuns},
                        {"mutants", kMutantsTotal},
                        {"killed", kMutantsKilled},
                        {"surviving", surviving},
                        {"summary", mutation_score_line(backend)}};
}

std::string mutation_score_line(std::string_view backend) {
  // The record is one backend's: its seeded bugs are in that backend's code,
  // so the score says nothing of another backend's.
  if (!mutation_score_measured(backend)) {
    return "mutation score: not measured for this backend (the suite's recorded score is the " +
           std::string(kMutationBackend) + " backend's)";
  }
  return "mutation score: " + std::to_string(kMutantsKilled) + "/" + std::to_string(kMutantsTotal) +
         " seeded bugs killed on " + std::string(kMutationDevice) + " at " +
         std::string(kMutationLevel) + " --runs " + std::to_string(kMutationRuns) + ", " +
         std::to_string(surviving_mutants().size()) + " survive (" + std::string(kMutantCatalogue) +
         " v" + std::to_string(kMutantCatalogueVersion) + ")";
}

}  // namespace vyre::certify
