// The certification run: the selected suite cases on one backend, levels
// judged fail-closed; certify/README.md traces it from the CLI to the reports.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "certify/gate/seed_policy.h"
#include "certify/report/known_failure.h"
#include "certify/report/report.h"
#include "certify/run/preparation_pool.h"
#include "certify/run/run_clock.h"
#include "certify/suite/random_program_cases.h"
#include "certify/suite/suite_case.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// Options of `vyre-certify --backend NAME ...`.
/// Seconds all reductions of one run may take together; past it failures
/// are reported unreduced (saying so), so a backend failing every random
/// program still finishes.
inline constexpr double kRunReductionSeconds = 300.0;

struct CertifyOptions {
  std::string backend;
  Level level = kDefaultLevel;
  uint32_t runs = 100;
  uint64_t seed = 1;
  /// Glob over case ids; empty runs every case.
  std::string filter;
  /// Folder of report.json, report.md, junit.xml and repro/.
  std::string out_dir;
  /// Wall-clock budget of one case's runs on the backend (0: none).
  std::chrono::milliseconds case_budget{std::chrono::minutes(5)};
  /// Show progress on stderr (a live line on a terminal, plain lines
  /// elsewhere); false for --quiet.
  bool progress = true;
  /// Wall-clock budget of the whole run (0: none), counted from the first
  /// case (opening the backend and building the catalog come before): cases
  /// not started once it is spent get verdict Timeout saying so, never a
  /// silent skip.
  std::chrono::seconds time_budget{0};
  /// How the seed was chosen, recorded in the report; nullopt records none.
  std::optional<SeedPolicyKind> seed_policy;
  /// Cases expected to fail (--baseline's failing cases, a gate file's list):
  /// the report records the comparison (Report::baseline) and the gate fails
  /// only on new failures; report.json's verdict is unchanged by them.
  std::vector<KnownFailure> known_failures;
  /// Where known_failures came from (the baseline's or gate file's path).
  /// The comparison is recorded when this or known_failures is not empty.
  std::string known_failures_source;
  /// Opens a fresh backend (and device) for the one retry of a case that
  /// ended DeviceLost, Timeout or Crashed (run/retry_policy.h); empty: no retries.
  std::function<Result<std::unique_ptr<Backend>>()> reopen_backend;
  /// Non-zero (the signal's number) once the run is to stop early (SIGINT,
  /// SIGTERM): the cases running finish, no other starts, and the report
  /// lists those not run (Report::not_run); null: never.
  const std::atomic<int>* interrupted = nullptr;
  /// Programs of the chosen cases compiled and prepared before the run
  /// (compile_cases_ahead; a fuzz hunt's block): the run takes them instead
  /// of compiling again. Null: the run compiles everything itself.
  CompiledAhead* compiled_ahead = nullptr;
  /// Seconds all reductions of the run may take together (default
  /// kRunReductionSeconds); a test of what happens around reduction gives less.
  double reduction_seconds = kRunReductionSeconds;
};

/// How the cases of a run on `backend` (on `device`) are run: `options`'
/// runs and budget, the device's preferred workgroup size, the backend's
/// encodings.
CaseRunOptions case_run_options(const Backend& backend, const Capabilities& device,
                                const CertifyOptions& options);

/// The cases at or below options.level whose id matches options.filter, in
/// catalog order: the run's one selection.
std::vector<const SuiteCase*> select_cases(const std::vector<SuiteCase>& cases,
                                           const CertifyOptions& options);

/// Runs `chosen` on `backend`, whose probe answered `device` when it was
/// opened. Repro files of failures are written under options.out_dir/repro
/// as they happen; a failing case that opts into reduction (L5) is reduced
/// first (run/failure_reduction.h) and both repros written. `random_tally`
/// (from the catalog) goes into the report's L5 summary. The report holds the cases, verdicts and
/// the compile, dispatch and reference phases; the caller adds the phases it timed (open, catalog)
/// and the wall time from its RunClock. Given known failures, the report
/// holds the comparison with them (baseline_comparison.h). Past
/// options.time_budget the cases not yet started are reported Timeout; a case
/// ending DeviceLost, Timeout or Crashed is run once more on
/// options.reopen_backend's fresh backend, which the rest of the run then
/// uses. Once options.interrupted is set, no case starts; the report is then
/// incomplete.
Report run_certification(Backend& backend, const Capabilities& device,
                         const std::vector<const SuiteCase*>& chosen, const CertifyOptions& options,
                         const RandomProgramTally& random_tally = {});

/// The phase holding the run's time that no other phase measured: the
/// runner's own work (comparing and sorting outputs, repro files, judging).
inline constexpr std::string_view kOtherPhase = "other";

/// Sets report.phase_us[kOtherPhase] to wall_us minus every other phase, so
/// that the phases add up to the wall time (0 if they already exceed it).
void record_other_time(Report& report);

}  // namespace vyre::certify
