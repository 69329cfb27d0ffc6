// The runs of a host-driven case, judged against the reference backend's
// outputs (computed in its CaseExpectations).
#pragma once

#include "certify/run/case_expectations.h"
#include "certify/run/case_runner.h"

namespace vyre::certify {

/// Runs `h` `options.runs` times on `backend`, filling `r`'s verdict, counts
/// and times. Its failures carry the engine's inputs and no repro file: no
/// single dispatch holds the case.
void run_host_case(Backend& backend, const HostCase& h, const CaseExpectations& expectations,
                   const CaseRunOptions& options, CaseResult& r);

}  // namespace vyre::certify
