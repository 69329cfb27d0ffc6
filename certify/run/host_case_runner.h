// The runs of a host-driven case: the reference backend's run for the
// expected outputs, then the backend's runs judged against them.
#pragma once

#include "certify/run/case_runner.h"

namespace vyre::certify {

/// Runs `h` (case `c`) `options.runs` times on `backend`, filling `r`'s
/// verdict, counts and times. Its failures carry the engine's inputs and no
/// repro file: no single dispatch holds the case.
void run_host_case(Backend& backend, const SuiteCase& c, const HostCase& h,
                   const CaseRunOptions& options, CaseResult& r);

}  // namespace vyre::certify
