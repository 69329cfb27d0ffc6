// The runs of a single-dispatch case: its variants, the reference's expected
// outputs for each, and every backend run judged against them.
#pragma once

#include "certify/run/case_runner.h"

namespace vyre::certify {

/// Runs every variant of `d` (case `c`) `options.runs` times on `backend`,
/// filling `r`'s verdict, counts and times.
void run_dispatch_case(Backend& backend, const SuiteCase& c, const DispatchCase& d,
                       const CaseRunOptions& options, const ReproWriter& write_repro,
                       CaseResult& r);

}  // namespace vyre::certify
