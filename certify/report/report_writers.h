// The human and CI forms of a report: report.md, report.html and junit.xml.
#pragma once

#include <string>
#include <string_view>

#include "certify/report/report.h"

namespace vyre::certify {

/// report.md: verdict, device, per-level table, failures with their first
/// difference and repro command.
std::string report_markdown(const Report& report);

/// report.html: one self-contained page (inline CSS and SVG, no scripts, no
/// network) with the verdict and `certificate_digest`, the per-level table,
/// where the time went, each failure's expected and observed words side by
/// side (differences highlighted, capped), replay commands, L5 coverage and
/// the mutation score. Every string from the report is escaped.
std::string report_html(const Report& report, std::string_view certificate_digest);

/// junit.xml: one testsuite per level, one testcase per case; wrong bytes,
/// bad output and not supported are <failure>s (fail closed: never a skip),
/// cases that could not finish are <error>s; the counts are those of the
/// testcases written.
std::string report_junit(const Report& report);

}  // namespace vyre::certify
