// How a batch of runs (Backend::dispatch_runs) records its first failure and
// hands its outcome back, the same in every backend's batch: the failing
// run's status, message and index, and no outputs unless every run passed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "backends/backend.h"

namespace vyre {

/// Records in `outcome` that run `run` failed with `status` and `message`.
/// Returns false, so that a batch's step can end with `return fail(...)`.
inline bool record_batch_failure(BatchOutcome& outcome, Status status, std::string message,
                                 uint32_t run) {
  outcome.status = status;
  outcome.message = std::move(message);
  outcome.failed_run = run;
  return false;
}

/// `outcome` as a batch hands it back: a failed batch returns no outputs.
inline BatchOutcome finished_batch(BatchOutcome&& outcome) {
  if (outcome.status != Status::Ok) outcome.first_outputs.clear();
  return std::move(outcome);
}

}  // namespace vyre
