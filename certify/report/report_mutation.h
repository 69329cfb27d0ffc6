// The suite's mutation score (mutation_record.h) as reports show it: a
// separate member of report.json, "mutation_score", and a line of report.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace vyre::certify {

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
