// L5/found: the driver bugs the suite found, certified on every backend. Each
// record of reports/driver-bugs/ holds a reduced repro (and some, more
// triggers of the same bug) whose expectation was checked by hand against the
// spec; a conformance suite that knows a driver miscompiles these programs
// must not call that driver conformant, and a fixed driver, or another one
// with the same bug, shows up in its verdict. The files are compiled into the
// binary (cmake/embed_driver_bug_cases.cmake).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "certify/suite/suite_case.h"

namespace vyre::certify {

/// The ids of the cases found_bug_cases makes start with this.
inline constexpr std::string_view kFoundBugIdPrefix = "L5/found/";

/// One case file of a record: its path under reports/driver-bugs/ and text.
struct DriverBugFile {
  std::string_view path;
  std::string_view text;
};

/// Every record's repro.vyre, trigger-*.vyre and variant-*.vyre, by path
/// (generated at configure time).
std::span<const DriverBugFile> driver_bug_files();

/// "L5/found/<record>" for a record's repro.vyre, "L5/found/<record>/<name>"
/// for its other case files.
std::string found_bug_case_id(std::string_view path);

/// One L5 case per file of `files` (the records compiled in), in their
/// order: the program, grid and inputs as recorded, judged against the
/// recorded expectation (which the reference interpreter must meet), run as
/// emitted and in each of the backend's other encodings, since some bugs
/// show only in one. A file that no longer parses, or leaves its bytes to
/// the reference (`expect reference`), is a broken case, never a missing one.
std::vector<SuiteCase> found_bug_cases(std::span<const DriverBugFile> files = driver_bug_files());

}  // namespace vyre::certify
