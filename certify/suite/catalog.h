// The certification suite: every case of every level, built for one seed.
#pragma once

#include <cstdint>
#include <vector>

#include "certify/suite/random_program_cases.h"
#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// What the catalogue is built for.
struct CatalogOptions {
  /// Seed of the generated cases (L4 graphs, L5 programs).
  uint64_t seed = 1;
  /// Highest level built: the cases above it (large generated and
  /// saturation inputs among them) are not built at all.
  Level up_to = kDefaultLevel;
  /// Random programs of L5 (its default size reaches the coverage universe).
  uint32_t random_programs = kRandomProgramCount;
  /// Where L5's generated and discarded programs are counted; may be null.
  RandomProgramTally* random_tally = nullptr;
};

/// Every suite case up to options.up_to, lowest level first; ids are unique.
std::vector<SuiteCase> build_catalog(const CatalogOptions& options);

}  // namespace vyre::certify
