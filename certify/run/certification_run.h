// The certification run: every selected suite case on one backend, levels
// judged fail-closed, reports written to the output folder.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "certify/report/report.h"
#include "certify/suite/suite_case.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// Options of `vyre-certify --backend NAME ...`.
struct CertifyOptions {
  std::string backend;
  Level level = kDefaultLevel;
  uint32_t runs = 100;
  uint64_t seed = 1;
  /// Glob over case ids; empty runs every case.
  std::string filter;
  /// Folder of report.json, report.md, junit.xml and repro/.
  std::string out_dir;
  /// Show progress on stderr (a live line on a terminal, plain lines
  /// elsewhere); false for --quiet.
  bool progress = true;
};

/// Runs `cases` (already built for options.seed) on `backend`; selects the
/// cases at or below options.level that match options.filter. Writes repro
/// files under options.out_dir/repro as failures happen.
Report run_certification(Backend& backend, const std::vector<SuiteCase>& cases,
                         const CertifyOptions& options);

/// The phase holding the run's time that no other phase measured: the
/// runner's own work (comparing and sorting outputs, repro files, judging).
inline constexpr std::string_view kOtherPhase = "other";

/// Sets report.phase_us[kOtherPhase] to wall_us minus every other phase, so
/// that the phases add up to the wall time (0 if they already exceed it).
void record_other_time(Report& report);

/// "m:ss" (or "h:mm:ss" from an hour on) of a non-negative duration.
std::string clock_text(std::chrono::seconds elapsed);

/// The progress line shown on a terminal while case `index` (0-based) of
/// `total` runs: "[3/224] 1:05 running ID (0:56)", the run's and the case's
/// elapsed time, shortened at the front of the id to fit 79 columns.
std::string progress_line(size_t index, size_t total, std::string_view id,
                          std::chrono::seconds run_elapsed, std::chrono::seconds case_elapsed);

/// First bytes of every repro file this tool writes ("# vyre-certify repro of
/// ID"): what marks a file in repro/ as one a later run may delete.
inline constexpr std::string_view kReproMarker = "# vyre-certify repro of ";

/// Deletes the repro files an earlier run left in `out_dir`/repro (regular
/// `.vyre` files starting with kReproMarker), so the folder lists this run's
/// failures only; any other file stays.
Result<Ok> clear_old_repros(const std::string& out_dir);

/// Writes report.json (with certificate), report.md and junit.xml into
/// `out_dir`; an Error names the file that could not be written.
Result<Ok> write_reports(const Report& report, const std::string& out_dir);

}  // namespace vyre::certify
