// `vyre-certify fuzz`: an open-ended hunt for backend bugs with L5's random
// programs. Program i of a hunt from seed S is L5's program i for --seed S
// (random_program_seed), so a hunt's first programs are a certification
// run's. Programs run in batches, each a certification run of its cases (the
// same lanes, compiles ahead and retries), whose programs are compiled
// together before it runs; every failure is reduced and written once per
// distinct reduced form.
//
// A hunt may have several workers, each with a backend of its own (for an
// isolated backend a child process of its own, so its own driver: NVIDIA's
// OpenCL builds one kernel at a time per process). They claim ranges of
// program indices from one counter, so N workers run the programs one would
// (the same set under max_programs), and share the findings, each distinct
// reduced form written once by the worker that met it first.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "certify/report/report.h"
#include "certify/run/certification_run.h"
#include "certify/run/hunt_findings.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// Knobs of one hunt.
struct HuntOptions {
  uint64_t seed = 1;
  /// Wall-clock budget, counted once every worker's backend is open; the
  /// batches running when it ends finish first.
  double seconds = 60;
  /// Dispatches of each variant of each case.
  uint32_t runs = 3;
  /// Folder the findings are written to (one subfolder per finding).
  std::string out_dir;
  /// Workgroup size resizable cases are also run at (the device's preferred).
  uint32_t preferred_workgroup_size = 64;
  /// A progress line on stderr (live on a terminal, plain lines elsewhere).
  bool progress = true;
  /// The --backend text, for the replay commands written with each finding.
  std::string backend_name;
  /// Workers hunting at once, each on a backend of its own: the first on the
  /// backend hunt() is given, the others on backends from open_backend.
  unsigned jobs = 1;
  /// Opens a fresh backend like the first: each further worker's, and one
  /// for the one retry of a case that lost the device, hung or crashed;
  /// empty: no retries, and one worker only.
  std::function<Result<std::unique_ptr<Backend>>()> open_backend;
  /// Compile each batch's programs (every variant and encoding) together on
  /// every core before it runs (compile_cases_ahead), rather than a few
  /// cases ahead of the one running; false: as a certification run does.
  bool compile_batches_ahead = true;
  /// Stop once this many programs were generated (0: only `seconds` stops
  /// the hunt), so that two hunts of one seed, of any number of workers, can
  /// be compared.
  uint64_t max_programs = 0;
  /// Seconds the reductions of each batch may take together.
  double reduction_seconds = kRunReductionSeconds;
  /// Non-zero (a signal's number) once the hunt is to stop early (SIGINT,
  /// SIGTERM): the cases running finish, no other case or batch starts, and
  /// what was found is returned as after a hunt that ran out of time.
  const std::atomic<int>* interrupted = nullptr;
};

/// What a hunt did.
struct HuntResult {
  /// Programs generated, by every worker together.
  uint64_t programs = 0;
  /// Programs the reference screened out (never run on the backend).
  uint64_t discarded = 0;
  /// Suite cases run: programs and their metamorphic variants.
  uint64_t cases = 0;
  /// Failures seen, duplicates of an earlier reduced form included.
  uint64_t failures = 0;
  std::vector<HuntFinding> findings;
  /// From every worker's backend open to the last worker stopping.
  double seconds = 0;
};

/// Hunts with options.jobs workers, the first on `backend`, until
/// options.seconds have passed or max_programs were taken; an Error, before
/// any program runs, naming the worker whose backend cannot be opened, is not
/// usable or is on another device than the first's.
Result<HuntResult> hunt(Backend& backend, const HuntOptions& options);

/// The id of hunt program `index` from `seed`: "fuzz/SEED/INDEX".
std::string hunt_program_id(uint64_t seed, uint64_t index);

}  // namespace vyre::certify
