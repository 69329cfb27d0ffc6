// The certification suite: every case of every level, built for one seed.
#pragma once

#include <cstdint>
#include <vector>

#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// What the catalogue is built for.
struct CatalogOptions {
  /// Seed of the generated (L4) cases.
  uint64_t seed = 1;
  /// Highest level built: the cases above it (large generated and
  /// saturation inputs among them) are not built at all.
  Level up_to = Level::L4;
};

/// Every suite case up to options.up_to, lowest level first; ids are unique.
std::vector<SuiteCase> build_catalog(const CatalogOptions& options);

}  // namespace vyre::certify
