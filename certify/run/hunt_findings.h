// The findings of a fuzz hunt: each failing case of a batch becomes a folder
// named by the hash of its reduced form (its failing form when unreduced),
// written once however many programs, batches or workers meet that form.
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "certify/report/report.h"

namespace vyre::certify {

/// One distinct failure: its reduced form's hash names its folder.
struct HuntFinding {
  /// Hex hash of the reduced case's canonical text (its name left out).
  std::string hash;
  std::string case_id;
  Verdict verdict = Verdict::Error;
  std::string message;
  /// out_dir/hash, holding original.vyre, reduced.vyre and README.txt.
  std::string dir;
};

/// The distinct findings of one hunt, shared by its workers: record() may be
/// called from any thread; each reduced form's folder is written by the one
/// call that first met it.
class HuntFindings {
 public:
  /// Findings go to out_dir/<hash>; their READMEs name the hunt's seed and
  /// replay on `backend_name`.
  HuntFindings(std::filesystem::path out_dir, uint64_t seed, std::string backend_name);

  /// Records failing case `r` of a batch whose scratch folder (a certification
  /// run's out_dir, holding its repros) is `batch_dir`: true when its form was
  /// new and its folder is written; false when it was seen, or its repro
  /// cannot be read back.
  bool record(const CaseResult& r, const std::filesystem::path& batch_dir);

  /// Distinct findings recorded so far.
  size_t count() const;

  /// The findings, in the order they were recorded.
  std::vector<HuntFinding> findings() const;

 private:
  /// Claims reduced form `hash`: true for the first call that gives it.
  bool claim(const std::string& hash);

  const std::filesystem::path out_dir_;
  const uint64_t seed_;
  const std::string backend_name_;
  mutable std::mutex mutex_;
  std::set<std::string> seen_;
  std::vector<HuntFinding> findings_;
};

}  // namespace vyre::certify
