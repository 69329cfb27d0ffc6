// Whether a report is a certificate of its level: its cases are exactly the
// suite's catalogue for its suite version, seed and level (rebuilt here with
// build_catalog), each recording the device it ran on, from a run that
// finished. A filtered run or one shard is checked as what it is, a part.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "spec/support/result.h"

namespace vyre::certify {

/// What a report's cases cover, once they check out against the catalogue.
struct ReportScope {
  /// True when the cases are every case of every level up to the requested one.
  bool whole_level = false;
  /// When not whole: what part they are ("a run filtered by `L1/*`: 137 of
  /// the 2936 cases up to L5", "shard 2 of 4: ...").
  std::string part;
};

/// Checks the cases of a report that verify_report accepted against this
/// build's catalogue (`suite_version` is this build's): the same suite
/// version; the ids exactly the selection its seed, level and filter give
/// (for one shard: within it, with the selection's size and digest); each
/// case's level and oracle the catalogue's; every case recording its device
/// fingerprint; not marked `"complete": false`. An Error names what is wrong,
/// listing missing and extra ids.
Result<ReportScope> check_completeness(const nlohmann::json& report,
                                       std::string_view suite_version);

}  // namespace vyre::certify
