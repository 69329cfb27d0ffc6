// The suite's mutation score (mutation_record.h) as reports show it: a
// separate member of report.json, "mutation_score", and a line of report.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace vyre::certify {

/// report.json's "mutation_score": the committed record, member by member.
nlohmann::json mutation_score_json();

/// One line, e.g. "mutation score: 41/58 seeded bugs killed on llvmpipe
/// (lavapipe) at L4 --runs 2, 17 survive (vulkan-mutants v1)".
std::string mutation_score_line();

}  // namespace vyre::certify
