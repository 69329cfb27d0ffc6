#include <cstdio>
#include <sstream>

#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

std::string ms(uint64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(us) / 1000.0);
  return buf;
}

}  // namespace

std::string report_markdown(const Report& r) {
  std::ostringstream out;
  out << "# vyre-certify report: `" << r.backend << "`\n\n";
  out << "**Verdict: " << (r.certified ? "CERTIFIED" : "NOT CERTIFIED") << " at "
      << name_of(r.requested_level) << "**";
  if (!r.reason.empty()) out << " — " << r.reason;
  out << "\n\n";
  out << "| | |\n|---|---|\n";
  out << "| spec snapshot | `" << Report::kSpecSnapshot << "` |\n";
  out << "| suite version | " << r.suite_version << " |\n";
  out << "| device | " << r.device.device_name << " |\n";
  out << "| driver | " << r.device.driver << " |\n";
  out << "| API | " << r.device.api << " |\n";
  out << "| started (UTC) | " << r.started_utc << " |\n";
  out << "| seed / runs per case | " << r.seed << " / " << r.runs << " |\n";
  if (!r.filter.empty()) out << "| filter | `" << r.filter << "` |\n";
  out << "| wall time | " << ms(r.wall_us) << " ms |\n\n";

  out << "## Levels\n\n| level | covers | cases | passed | failed | not supported | certified |\n"
      << "|---|---|---|---|---|---|---|\n";
  for (const LevelSummary& l : r.levels) {
    out << "| " << name_of(l.level) << " | " << summary_of(l.level) << " | " << l.cases << " | "
        << l.passed << " | " << l.failed << " | " << l.not_supported << " | "
        << (l.certified ? "yes" : "no: " + l.reason) << " |\n";
  }

  out << "\n## Phases\n\n| phase | ms |\n|---|---|\n";
  for (const auto& [phase, us] : r.phase_us) out << "| " << phase << " | " << ms(us) << " |\n";

  bool any_failure = false;
  for (const CaseResult& c : r.cases) {
    if (c.verdict == Verdict::Pass) continue;
    if (!any_failure) out << "\n## Cases that did not pass\n";
    any_failure = true;
    out << "\n### `" << c.id << "`: " << name_of(c.verdict) << "\n\n" << c.message << "\n";
    if (!c.failure) continue;
    const Failure& f = *c.failure;
    out << "\n- variant: " << f.variant << "\n";
    if (!f.detail.empty()) out << "- detail: " << f.detail << "\n";
    if (f.first_difference) {
      const FirstDifference& d = *f.first_difference;
      char line[160];
      std::snprintf(line, sizeof line,
                    "- first difference: `%s` word %llu: expected 0x%08x, observed 0x%08x\n",
                    d.buffer.c_str(), static_cast<unsigned long long>(d.word), d.expected,
                    d.observed);
      out << line;
    }
    if (!f.repro.empty()) {
      out << "- replay: `vyre-certify run " << f.repro << " --backend " << r.backend << "`\n";
    }
  }
  if (!any_failure) out << "\nEvery case passed.\n";

  out << "\n## Cases\n\n| case | level | oracle | status | variants x runs | distinct outputs |"
         " backend ms |\n|---|---|---|---|---|---|---|\n";
  for (const CaseResult& c : r.cases) {
    out << "| `" << c.id << "` | " << name_of(c.level) << " | " << c.oracle << " | "
        << name_of(c.verdict) << " | " << c.variants << " x " << c.runs_per_variant << " | "
        << c.distinct_outputs << " | " << ms(c.backend_us) << " |\n";
  }
  return out.str();
}

}  // namespace vyre::certify
