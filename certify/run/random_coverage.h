// What a run's random programs (L5) exercised, for the report: the coverage
// record (generators/coverage.h) of every selected original program, counted
// per category of the universe, with the entries none reached.
#pragma once

#include <vector>

#include "certify/report/report.h"
#include "certify/suite/random_program_cases.h"
#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// The summary of the random programs (L5/random) among `chosen` (originals
/// only: a metamorphic variant exercises what its original does); nullopt
/// when none is chosen.
std::optional<RandomProgramSummary> summarize_random_programs(
    const std::vector<const SuiteCase*>& chosen, const RandomProgramTally& tally);

/// The category of one line of Coverage::missing(): "kind@context" for an
/// expression kind by context ("kind @ context"), else the operation's
/// prefix ("bin" of "bin.add u32").
std::string coverage_category(std::string_view missing_line);

}  // namespace vyre::certify
