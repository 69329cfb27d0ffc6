// What both kinds of case share while their runs are judged: the judge of
// one variant's runs (the one output judge plus the distinct-output count)
// and how a failure is recorded in a CaseResult.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "certify/report/report.h"
#include "certify/run/case_runner.h"
#include "certify/run/output_judge.h"
#include "certify/run/run_clock.h"

namespace vyre::certify {

/// Judges the runs of one variant against its expectation and counts the
/// distinct canonical outputs among them.
class RunJudge {
 public:
  /// `expectation` holds the expected outputs and the comparison (for
  /// byte comparison, the reference's outputs); `reference_shown` is the
  /// expectation in the form the judge shows outputs (canonical), against
  /// which identical runs are recognised without hashing them.
  RunJudge(const TestCase& expectation, const BufferSet& reference_shown)
      : expectation_(expectation), reference_shown_(reference_shown) {}

  /// Why one run's outputs fail, with those outputs as the judge shows them
  /// in `shown`; nullopt when they pass.
  std::optional<std::string> judge(const BufferSet& outputs, BufferSet& shown);

  /// Distinct outputs seen so far (1 = deterministic).
  uint32_t distinct_outputs() const { return static_cast<uint32_t>(distinct_.size()); }

 private:
  uint64_t reference_digest();

  const TestCase& expectation_;
  const BufferSet& reference_shown_;
  std::optional<uint64_t> reference_digest_;
  std::set<uint64_t> distinct_;
};

/// Fills `r` as a failure of `variant` run on `inputs`; writes `repro` (a
/// case expecting what a conforming backend must produce) when there is one.
void record_failure(CaseResult& r, Verdict verdict, std::string message, const std::string& variant,
                    const BufferSet& inputs, const BufferSet& expected, const BufferSet& observed,
                    const std::optional<TestCase>& repro, const ReproWriter& write_repro);

}  // namespace vyre::certify
