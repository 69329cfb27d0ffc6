// report.html: one self-contained page (inline CSS and SVG, no scripts, no
// network; its Content-Security-Policy forbids both), built from a table of
// sections so a new part of the report is one more function.
#include <algorithm>
#include <cstdio>
#include <set>

#include "certify/report/failure_words.h"
#include "certify/report/html_parts.h"
#include "certify/report/mutation_record.h"
#include "certify/report/replay_command.h"
#include "certify/report/report_mutation.h"
#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

/// Cases whose failure gets its full section; the rest get one table row, so
/// a run where everything fails still gives a page a browser opens.
constexpr size_t kMaxDetailedFailures = 50;
/// Bars in the slowest-cases chart.
constexpr size_t kSlowestCases = 10;

constexpr std::string_view kStyle = R"(
body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1b1b1b;background:#fff}
h1{margin:0;font-size:2.4em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
.verdict{padding:16px 20px;border-radius:6px;color:#fff}
.verdict.certified{background:#1d7a32}.verdict.not-certified{background:#b3261e}
.verdict table td{color:#fff;border:none;padding:2px 12px 2px 0}
.reason{font-size:1.2em;margin:6px 0 10px}
table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0}
tr.fail td{background:#fde8e6}tr.pass td{background:#e8f5e9}
td.diff{background:#ffcc33;font-weight:bold}
tr.gap td{color:#666;font-style:italic}
.words td{font-family:ui-monospace,monospace}
pre{background:#f4f4f4;padding:8px;overflow-x:auto}
.chart text{font-size:12px;fill:#1b1b1b}.chart .bar{fill:#3b6fb6}
.digest{font-family:ui-monospace,monospace;word-break:break-all}
)";

/// What every section reads.
struct Page {
  const Report& report;
  std::string_view certificate_digest;
};

std::string millis_text(uint64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(us) / 1000.0);
  return buf;
}

std::string hex_word(const std::optional<uint32_t>& word) {
  if (!word) return "(past the end)";
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", *word);
  return buf;
}

std::string verdict_word(const Report& r) {
  return r.certified ? "CERTIFIED" : "NOT CERTIFIED";
}

std::string key_value(std::string_view key, std::string_view value, std::string_view cls = "") {
  return tr({td(key), td(value, cls)});
}

void verdict_section(const Page& page, std::string& out) {
  const Report& r = page.report;
  out += "<header class=\"verdict " + std::string(r.certified ? "certified" : "not-certified") +
         "\">\n";
  out += element("h1", verdict_word(r) + " at " + std::string(name_of(r.requested_level)));
  if (!r.reason.empty()) out += element("div", r.reason, "reason");
  out += "<table>\n";
  out += key_value("backend", r.backend);
  out += key_value("device", r.device.device_name);
  out += key_value("driver", r.device.driver);
  out += key_value("API", r.device.api);
  out += key_value("level", name_of(r.requested_level));
  out += key_value("seed", std::to_string(r.seed));
  out += key_value("runs per case", std::to_string(r.runs));
  if (!r.filter.empty()) out += key_value("filter", r.filter);
  out += key_value("suite version", r.suite_version);
  out += key_value("spec snapshot", Report::kSpecSnapshot);
  out += key_value("started (UTC)", r.started_utc);
  out += key_value("wall time", millis_text(r.wall_us) + " ms");
  out += key_value("certificate (sha256)", page.certificate_digest, "digest");
  out += "</table>\n</header>\n";
}

void levels_section(const Page& page, std::string& out) {
  out += "<h2>Levels</h2>\n<table>\n";
  out += header_row({"level", "covers", "cases", "passed", "failed", "not supported", "certified"});
  for (const LevelSummary& l : page.report.levels) {
    out += "<tr class=\"" + std::string(l.certified ? "pass" : "fail") + "\">" +
           td(name_of(l.level)) + td(summary_of(l.level)) + td(std::to_string(l.cases)) +
           td(std::to_string(l.passed)) + td(std::to_string(l.failed)) +
           td(std::to_string(l.not_supported)) + td(l.certified ? "yes" : "no: " + l.reason) +
           "</tr>\n";
  }
  out += "</table>\n";
}

uint64_t case_us(const CaseResult& c) {
  return c.compile_us + c.backend_us + c.reference_us;
}

void time_section(const Page& page, std::string& out) {
  const Report& r = page.report;
  out += "<h2>Where the time went</h2>\n<p>Wall time " + millis_text(r.wall_us) +
         " ms, by phase (the phases add up to it):</p>\n";
  std::vector<Bar> phases;
  for (const auto& [phase, us] : r.phase_us) phases.push_back({phase, us / 1000.0});
  out += bar_chart(phases, "ms");

  std::vector<const CaseResult*> slowest;
  for (const CaseResult& c : r.cases) slowest.push_back(&c);
  const size_t shown = std::min(kSlowestCases, slowest.size());
  std::partial_sort(
      slowest.begin(), slowest.begin() + static_cast<std::ptrdiff_t>(shown), slowest.end(),
      [](const CaseResult* a, const CaseResult* b) { return case_us(*a) > case_us(*b); });
  out += "<p>The " + std::to_string(shown) +
         " slowest cases (compile + backend + reference time):</p>\n";
  std::vector<Bar> cases;
  for (size_t i = 0; i < shown; ++i)
    cases.push_back({slowest[i]->id, case_us(*slowest[i]) / 1000.0});
  out += bar_chart(cases, "ms");
}

std::string word_table(const BufferWords& words) {
  std::string out = "<table class=\"words\">\n" + header_row({"word", "expected", "observed"});
  uint64_t next = 0;
  auto gap = [&out](uint64_t count) {
    out += "<tr class=\"gap\"><td colspan=\"3\">" + std::to_string(count) +
           " words not shown</td></tr>\n";
  };
  for (const WordRow& row : words.rows) {
    if (row.word > next) gap(row.word - next);
    const std::string_view cls = row.differs ? "diff" : "";
    out += tr({td(std::to_string(row.word)), td(hex_word(row.expected), cls),
               td(hex_word(row.observed), cls)});
    next = row.word + 1;
  }
  if (words.words > next) gap(words.words - next);
  out += "</table>\n";
  const uint64_t left_out = words.words - words.rows.size();
  return element("p", "buffer " + words.buffer + ": " + std::to_string(words.words) + " words, " +
                          std::to_string(words.differing) + " differ; " + std::to_string(left_out) +
                          " words left out of the table") +
         out;
}

/// How the reader sees `repro` fail again: replayed, or (no case file) the
/// case rerun.
std::string replay_or_rerun(const Report& r, const CaseResult& c, const std::string& repro) {
  return repro.empty() ? rerun_command(r.backend, c.level, r.seed, c.id)
                       : replay_command(repro, r.backend);
}

std::string failure_details(const Report& r, const CaseResult& c) {
  std::string out = element("p", c.message);
  if (!c.failure) return out;
  const Failure& f = *c.failure;
  out += "<table>\n" + key_value("variant", f.variant);
  if (!f.detail.empty()) out += key_value("detail", f.detail);
  if (f.first_difference) {
    const FirstDifference& d = *f.first_difference;
    out += key_value("first difference", "buffer " + d.buffer + " word " + std::to_string(d.word) +
                                             ": expected " + hex_word(d.expected) + ", observed " +
                                             hex_word(d.observed));
  }
  out += "</table>\n";
  if (!f.expected.empty() && !f.observed.empty()) {
    for (const BufferWords& words : compare_words(f.expected, f.observed)) out += word_table(words);
  }
  out += "<p>Replay";
  // Only the run's own repro folder is linked: a report read back from disk
  // could name any URL.
  if (f.repro.starts_with("repro/")) out += " (case file " + link(f.repro, f.repro) + ")";
  out += ":</p>\n" + element("pre", replay_or_rerun(r, c, f.repro));
  if (!f.reduced_repro.empty()) {
    const std::string keeping =
        f.reduced_symptom.empty() ? "" : ", keeping " + html_text(f.reduced_symptom);
    out +=
        "<p>Reduced" + keeping + ":</p>\n" + element("pre", replay_or_rerun(r, c, f.reduced_repro));
  }
  if (!f.original_repro.empty()) {
    out += "<p>Original program (the variant must give its bytes):</p>\n" +
           element("pre", replay_or_rerun(r, c, f.original_repro));
  }
  return out;
}

void failures_section(const Page& page, std::string& out) {
  const Report& r = page.report;
  std::vector<const CaseResult*> failing;
  for (const CaseResult& c : r.cases) {
    if (c.verdict != Verdict::Pass) failing.push_back(&c);
  }
  out += "<h2>Cases that did not pass</h2>\n";
  if (failing.empty()) {
    out += "<p>Every case passed.</p>\n";
    return;
  }
  for (size_t i = 0; i < failing.size() && i < kMaxDetailedFailures; ++i) {
    const CaseResult& c = *failing[i];
    out += element("h3", c.id + ": " + std::string(name_of(c.verdict)));
    out += failure_details(r, c);
  }
  if (failing.size() <= kMaxDetailedFailures) return;
  out += element("p", std::to_string(failing.size() - kMaxDetailedFailures) +
                          " more cases did not pass (report.json has their details):");
  out += "<table>\n" + header_row({"case", "status", "message"});
  for (size_t i = kMaxDetailedFailures; i < failing.size(); ++i) {
    const CaseResult& c = *failing[i];
    out += tr({td(c.id), td(name_of(c.verdict)), td(c.message)});
  }
  out += "</table>\n";
}

void coverage_section(const Page& page, std::string& out) {
  if (!page.report.random_programs) return;
  const RandomProgramSummary& s = *page.report.random_programs;
  out += "<h2>Random programs (L5)</h2>\n";
  out += element("p", std::to_string(s.programs) + " programs ran (" + std::to_string(s.generated) +
                          " drawn from the seed, " + std::to_string(s.discarded) +
                          " discarded by the reference). Coverage of operations x types x "
                          "contexts:");
  out += "<table>\n" + header_row({"category", "reached", "of"});
  for (const CoverageCategory& c : s.categories) {
    out += tr({td(c.category), td(std::to_string(c.reached)), td(std::to_string(c.universe))});
  }
  out += "</table>\n";
  if (s.not_reached.empty()) {
    out += "<p>Every entry of the universe was reached.</p>\n";
    return;
  }
  std::string list;
  for (size_t i = 0; i < s.not_reached.size(); ++i) list += (i ? ", " : "") + s.not_reached[i];
  out += element("p", "Not reached: " + list);
}

/// The known failures the run judged, each with why it is known to fail.
void known_failures_section(const Page& page, std::string& out) {
  const std::optional<BaselineComparison>& b = page.report.baseline;
  if (!b || b->known.empty()) return;
  out += "<h2>Known failures</h2>\n" + element("p", "Known from " + b->source + ".");
  out += "<table>\n" + header_row({"case", "now", "reason", "link"});
  const std::set<std::string> fixed(b->fixed.begin(), b->fixed.end());
  for (const KnownFailure& k : b->known) {
    out += tr({td(k.case_id), td(fixed.contains(k.case_id) ? "fixed" : "still failing"),
               td(k.reason), td(k.link)});
  }
  out += "</table>\n";
}

void mutation_section(const Page& page, std::string& out) {
  out += "<h2>Suite strength</h2>\n" + element("p", mutation_score_line(page.report.backend));
  const MutationRecord* record = mutation_record_of(page.report.backend);
  if (record == nullptr) return;
  out += "<table>\n" + header_row({"surviving mutant", "why"});
  for (const SurvivingMutant& m : record->surviving) out += tr({td(m.name), td(m.reason)});
  out += "</table>\n";
}

void cases_section(const Page& page, std::string& out) {
  const Report& r = page.report;
  out += "<h2>Cases</h2>\n<details><summary>All " + std::to_string(r.cases.size()) +
         " cases</summary>\n<table>\n";
  out += header_row(
      {"case", "level", "oracle", "status", "variants x runs", "distinct outputs", "backend ms"});
  for (const CaseResult& c : r.cases) {
    out += "<tr class=\"" + std::string(c.verdict == Verdict::Pass ? "pass" : "fail") + "\">" +
           td(c.id) + td(name_of(c.level)) + td(c.oracle) + td(name_of(c.verdict)) +
           td(std::to_string(c.variants) + " x " + std::to_string(c.runs_per_variant)) +
           td(std::to_string(c.distinct_outputs)) + td(millis_text(c.backend_us)) + "</tr>\n";
  }
  out += "</table>\n</details>\n";
}

/// The page's sections, top to bottom.
using Section = void (*)(const Page&, std::string&);
constexpr Section kSections[] = {verdict_section,  levels_section,   time_section,
                                 failures_section, coverage_section, known_failures_section,
                                 mutation_section, cases_section};

}  // namespace

std::string report_html(const Report& report, std::string_view certificate_digest) {
  const Page page{report, certificate_digest};
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n";
  out += element("title", "vyre-certify: " + verdict_word(report) + " " + report.backend);
  out += "\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  for (Section section : kSections) section(page, out);
  return out + "</body>\n</html>\n";
}

}  // namespace vyre::certify
