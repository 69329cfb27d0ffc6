// Runs one suite case on a backend against the reference: every variant
// (workgroup sizes, output initialisation) of a single-dispatch case, or the
// runs of a host-driven case, each repeated `runs` times, every run judged by
// the one output judge (output_judge.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "certify/report/report.h"
#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// Knobs of a case run.
struct CaseRunOptions {
  uint32_t runs = 100;
  /// Workgroup sizes resizable cases are also run at (1, 64, preferred).
  uint32_t preferred_workgroup_size = 64;
  /// Byte that poisoned output buffers are filled with.
  uint8_t poison = 0xAB;
  /// The backend host-driven cases are also run on for their expected
  /// outputs; null: the runner makes a reference-interpreter backend
  /// (make_reference_backend). Tests substitute their own.
  Backend* reference = nullptr;
  /// Wall-clock budget of one case's runs on the backend (0: none): a
  /// backend that is slow but never hangs one submission fails the case
  /// with `timeout` instead of stretching the run without limit.
  std::chrono::milliseconds case_budget{0};
  /// The backend's encodings besides as-emitted (Backend::encodings): a case
  /// with DispatchCase::encoding_variant runs once more in one of them, one
  /// with DispatchCase::every_encoding in each.
  std::vector<Encoding> encodings;
  /// Threads the reference may use for one long case (its variants side by
  /// side, and a long run's schedule probes; case_expectations.h): 1 keeps
  /// each case on one thread. The run sets it on hosts with cores to spare.
  unsigned reference_threads = 1;
};

struct CaseExpectations;

/// Writes a repro (a failing dispatch as a case file expecting what a
/// conforming backend must produce, with its comparison) and returns its
/// path relative to the report ("" if none).
using ReproWriter = std::function<std::string(const TestCase&)>;

/// Runs `c` on `backend`; the returned result's failure (if any) carries the
/// failing variant's inputs, expected and observed bytes, and a repro
/// written through `write_repro`. A failure left without a repro file says
/// in its message how its inputs are generated and which command reruns it.
/// `expectations` are the reference's answers for `c` when already computed
/// (the PreparationPool); null computes them here first.
CaseResult run_case(Backend& backend, const SuiteCase& c, const CaseRunOptions& options,
                    const ReproWriter& write_repro, const CaseExpectations* expectations = nullptr);

}  // namespace vyre::certify
