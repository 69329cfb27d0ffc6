// Every file a certification run writes into its output folder: report.json
// (with its certificate), report.md, report.html, junit.xml and the repro
// case files. The run decides what goes in them; only this file writes them.
#pragma once

#include <string>
#include <string_view>

#include "certify/report/report.h"
#include "certify/report/report_signature.h"
#include "spec/ir/test_case.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// First bytes of every repro file this tool writes ("# vyre-certify repro of
/// ID"): what marks a file in repro/ as one a later run may delete.
inline constexpr std::string_view kReproMarker = "# vyre-certify repro of ";

/// Deletes the repro files an earlier run left in `out_dir`/repro (regular
/// `.vyre` files starting with kReproMarker), so the folder lists this run's
/// failures only; any other file stays.
Result<Ok> clear_old_repros(const std::string& out_dir);

/// Writes `repro` (named by its case id) as `out_dir`/repro/ID.vyre and
/// returns that path relative to `out_dir`; "" when it cannot be written or
/// is past the case format's data limit (no parser would read it back: the
/// report keeps its truncated bytes instead).
std::string write_repro_file(const std::string& out_dir, const TestCase& repro);

/// Deletes the repro file `relative` ("repro/FILE", as write_repro_file
/// returns it) from `out_dir` when it is one this tool wrote; does nothing
/// for "" or any other path.
void remove_repro_file(const std::string& out_dir, const std::string& relative);

/// Copies the repro files `report`'s failures name (paths under repro/,
/// relative to `from_dir`, where that report was written) into `out_dir`:
/// how `merge` keeps each shard's repros beside the merged report. A named
/// file that is missing is skipped (the report still holds the bytes); a
/// path outside repro/ is never followed; a symbolic link (repro/ itself, a
/// named file, or its destination) is an Error.
Result<Ok> copy_repro_files(const Report& report, const std::string& from_dir,
                            const std::string& out_dir);

/// Writes report.json (with certificate, signed by `signer` when given: a
/// private key), report.md, report.html and junit.xml into `out_dir`; an
/// Error names the file that could not be written.
Result<Ok> write_reports(const Report& report, const std::string& out_dir,
                         const Ed25519Key* signer = nullptr);

}  // namespace vyre::certify
