// The human and CI forms of a report: report.md and junit.xml.
#pragma once

#include <string>

#include "certify/report/report.h"

namespace vyre::certify {

/// report.md: verdict, device, per-level table, failures with their first
/// difference and repro command.
std::string report_markdown(const Report& report);

/// junit.xml: one testsuite per level, one testcase per case; wrong bytes,
/// bad output and not supported are <failure>s (fail closed: never a skip),
/// cases that could not finish are <error>s; the counts are those of the
/// testcases written.
std::string report_junit(const Report& report);

}  // namespace vyre::certify
