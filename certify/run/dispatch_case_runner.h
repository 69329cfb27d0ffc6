// The runs of a single-dispatch case: each variant's runs recorded in batches
// (Backend::dispatch_runs) and judged against the reference's expectation.
#pragma once

#include "certify/run/case_expectations.h"
#include "certify/run/case_runner.h"

namespace vyre::certify {

/// Runs every variant in `expectations` `options.runs` times on `backend`,
/// filling `r`'s verdict, counts and times.
void run_dispatch_case(Backend& backend, const CaseExpectations& expectations,
                       const CaseRunOptions& options, const ReproWriter& write_repro,
                       CaseResult& r);

}  // namespace vyre::certify
