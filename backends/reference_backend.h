// The reference interpreter (reference/interpreter.h) behind the Backend
// interface, so the certifier can run it like any device.
//
// A run the interpreter finds non-conforming (a data race, a divergent
// barrier) has no defined bytes, so dispatch reports it as Status::Error whose
// message lists every violation; an interpreter error (bad inputs, grid past
// its limits, step budget exhausted) is Status::Error with its message too.
// dispatch_runs runs run 0 with those checks and the others without them
// (the verdict is the same for the same program, inputs and schedule), on
// every host core, still comparing their bytes with run 0's.
#pragma once

#include <memory>

#include "backends/backend.h"
#include "backends/backend_options.h"

namespace vyre {

/// A backend that runs programs on the reference interpreter.
std::unique_ptr<Backend> make_reference_backend(const BackendOptions& options);

}  // namespace vyre
