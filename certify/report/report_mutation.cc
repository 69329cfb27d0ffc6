#include "certify/report/report_mutation.h"

#include "certify/report/mutation_record.h"

namespace vyre::certify {

nlohmann::json mutation_score_json() {
  nlohmann::json surviving = nlohmann::json::array();
  for (const SurvivingMutant& m : surviving_mutants()) {
    surviving.push_back({{"name", m.name}, {"reason", m.reason}});
  }
  return {{"catalogue", kMutantCatalogue},   {"catalogue_version", kMutantCatalogueVersion},
          {"device", kMutationDevice},       {"level", kMutationLevel},
          {"runs", kMutationRuns},           {"mutants", kMutantsTotal},
          {"killed", kMutantsKilled},        {"surviving", surviving},
          {"summary", mutation_score_line()}};
}

std::string mutation_score_line() {
  return "mutation score: " + std::to_string(kMutantsKilled) + "/" + std::to_string(kMutantsTotal) +
         " seeded bugs killed on " + std::string(kMutationDevice) + " at " +
         std::string(kMutationLevel) + " --runs " + std::to_string(kMutationRuns) + ", " +
         std::to_string(surviving_mutants().size()) + " survive (" + std::string(kMutantCatalogue) +
         " v" + std::to_string(kMutantCatalogueVersion) + ")";
}

}  // namespace vyre::certify
