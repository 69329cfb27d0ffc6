// The commands a reader types to see a failure again: one spelling for
// report.md, report.html and a fuzz hunt's README, so that a change to the
// CLI is made here once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "certify/suite/level.h"

namespace vyre::certify {

/// `vyre-certify run REPRO --backend BACKEND`: replays a repro case file.
std::string replay_command(std::string_view repro, std::string_view backend);

/// `vyre-certify reduce REPRO --backend BACKEND`: reduces a repro further
/// than a run's own reduction, which stops at its cap.
std::string reduce_command(std::string_view repro, std::string_view backend);

/// `vyre-certify --backend BACKEND --level L --seed S --filter ID`: reruns one
/// case that has no case file (the dataflow engine, or past the text format's
/// limit); the same seed and filter rebuild exactly that case.
std::string rerun_command(std::string_view backend, Level level, uint64_t seed,
                          std::string_view case_id);

}  // namespace vyre::certify
