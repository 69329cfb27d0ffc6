#include <cstdio>
#include <sstream>

#include "certify/report/replay_command.h"
#include "certify/report/report_mutation.h"
#include "certify/report/report_text.h"
#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

std::string ms(uint64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(us) / 1000.0);
  return buf;
}

void id_list(std::string_view title, const std::vector<std::string>& ids, std::ostringstream& out) {
  out << "- " << title << " (" << ids.size() << ")";
  for (size_t i = 0; i < ids.size(); ++i) out << (i ? ", " : ": ") << markdown_text(ids[i]);
  out << "\n";
}

/// The dispatch phase split into device and host time, and the slowest
/// cases with theirs.
void dispatch_split_markdown(const Report& r, std::ostringstream& out) {
  const DispatchSplit& s = *r.dispatch_split;
  out << "\nDispatch phase: **" << ms(s.device_us) << " ms device execution** (the device's own "
      << "clock, over the " << s.measured_cases << " measured cases) and **" << ms(s.host_us)
      << " ms host work** (uploads, recording, submission, waiting, readback, comparison"
      << (s.unmeasured_cases != 0
              ? ", and all of the " + std::to_string(s.unmeasured_cases) + " unmeasured cases' time"
              : std::string())
      << ").\n\n| slowest case | backend ms | device ms | host ms |\n|---|---|---|---|\n";
  for (const CaseResult* c : slowest_cases(r)) {
    out << "| " << markdown_text(c->id) << " | " << ms(c->backend_us) << " | "
        << (c->device_us ? ms(*c->device_us) : "not measured") << " | "
        << (c->device_us ? ms(c->backend_us - *c->device_us) : "-") << " |\n";
  }
}

void baseline_markdown(const BaselineComparison& b, std::ostringstream& out) {
  out << "\n## Known failures\n\nCompared with the known failures of " << markdown_text(b.source)
      << ". The verdict above stays that of the cases; the gate fails only on new failures: "
      << (b.new_failures.empty() ? "**gate passes**" : "**gate fails**") << ".\n\n";
  id_list("new failures", b.new_failures, out);
  id_list("fixed (known, now passing)", b.fixed, out);
  id_list("still failing (known)", b.still_failing, out);
  if (b.known.empty()) return;
  out << "\n| known failure | reason | link |\n|---|---|---|\n";
  for (const KnownFailure& k : b.known) {
    out << "| " << markdown_text(k.case_id) << " | " << markdown_text(k.reason) << " | "
        << markdown_text(k.link) << " |\n";
  }
}

}  // namespace

std::string report_markdown(const Report& r) {
  std::ostringstream out;
  // Text from the backend or the command line goes through markdown_text: a
  // `|` would end a table cell, a `<` open HTML.
  out << "# vyre-certify report: " << markdown_text(r.backend) << "\n\n";
  out << "**Verdict: " << (r.certified ? "CERTIFIED" : "NOT CERTIFIED") << " at "
      << name_of(r.requested_level) << "**";
  if (!r.reason.empty()) out << " — " << markdown_text(r.reason);
  out << "\n\n";
  out << "| | |\n|---|---|\n";
  out << "| spec snapshot | `" << Report::kSpecSnapshot << "` |\n";
  out << "| suite version | " << markdown_text(r.suite_version) << " |\n";
  out << "| device | " << markdown_text(r.device.device_name) << " |\n";
  out << "| driver | " << markdown_text(r.device.driver) << " |\n";
  out << "| API | " << markdown_text(r.device.api) << " |\n";
  out << "| started (UTC) | " << r.started_utc << " |\n";
  out << "| seed / runs per case | " << r.seed << " / " << r.runs << " |\n";
  if (r.seed_policy) out << "| seed policy | " << markdown_text(*r.seed_policy) << " |\n";
  if (r.time_budget_s) out << "| time budget | " << *r.time_budget_s << " s |\n";
  if (!r.filter.empty()) out << "| filter | " << markdown_text(r.filter) << " |\n";
  out << "| wall time | " << ms(r.wall_us) << " ms |\n";
  if (r.shard) {
    out << "| shard | " << r.shard->index << " of " << r.shard->count << " (" << r.cases.size()
        << " of " << r.shard->selected << " selected cases) |\n";
  }
  if (r.shards) out << "| merged from | " << r.shards->size() << " shard reports |\n";
  out << "| suite strength | " << mutation_score_line(r.backend) << " |\n\n";

  out << "## Levels\n\n| level | covers | cases | passed | failed | not supported | certified |\n"
      << "|---|---|---|---|---|---|---|\n";
  for (const LevelSummary& l : r.levels) {
    out << "| " << name_of(l.level) << " | " << summary_of(l.level) << " | " << l.cases << " | "
        << l.passed << " | " << l.failed << " | " << l.not_supported << " | "
        << (l.certified ? "yes" : "no: " + markdown_text(l.reason)) << " |\n";
  }

  if (r.baseline) baseline_markdown(*r.baseline, out);

  out << "\n## Phases\n\n| phase | ms |\n|---|---|\n";
  for (const auto& [phase, us] : r.phase_us) out << "| " << phase << " | " << ms(us) << " |\n";
  out << "| **wall time** | " << ms(r.wall_us) << " |\n\n"
      << "The wall time runs from opening the backend to the verdict, and the phases add up to "
         "it; only writing these reports lies outside it.\n";
  if (r.dispatch_split) dispatch_split_markdown(r, out);

  if (r.random_programs) {
    const RandomProgramSummary& s = *r.random_programs;
    out << "\n## Random programs (L5)\n\n"
        << s.programs << " programs ran (" << s.generated << " drawn from the seed, " << s.discarded
        << " discarded by the reference). Coverage of operations x types x contexts:\n\n"
        << "| category | reached | of |\n|---|---|---|\n";
    for (const CoverageCategory& c : s.categories) {
      out << "| " << markdown_text(c.category) << " | " << c.reached << " | " << c.universe
          << " |\n";
    }
    if (s.not_reached.empty()) {
      out << "\nEvery entry of the universe was reached.\n";
    } else {
      out << "\nNot reached: ";
      for (size_t i = 0; i < s.not_reached.size(); ++i) {
        out << (i ? ", " : "") << "`" << markdown_text(s.not_reached[i]) << "`";
      }
      out << "\n";
    }
  }

  bool any_retried = false;
  for (const CaseResult& c : r.cases) {
    if (!c.retried) continue;
    if (!any_retried) {
      out << "\n## Retried cases\n\nRun once more on a freshly opened backend after an "
             "infrastructure status (device lost, timeout, crashed); the second attempt's verdict "
             "counts.\n\n| case | first attempt | second attempt |\n|---|---|---|\n";
    }
    any_retried = true;
    out << "| " << markdown_text(c.id) << " | " << markdown_text(*c.retried) << " | "
        << name_of(c.verdict) << " |\n";
  }

  bool any_failure = false;
  for (const CaseResult& c : r.cases) {
    if (c.verdict == Verdict::Pass) continue;
    if (!any_failure) out << "\n## Cases that did not pass\n";
    any_failure = true;
    out << "\n### " << markdown_text(c.id) << ": " << name_of(c.verdict) << "\n\n"
        << markdown_text(c.message) << "\n";
    if (!c.failure) continue;
    const Failure& f = *c.failure;
    out << "\n- variant: " << markdown_text(f.variant) << "\n";
    if (!f.detail.empty()) out << "- detail: " << markdown_text(f.detail) << "\n";
    if (f.first_difference) {
      const FirstDifference& d = *f.first_difference;
      char words[96];
      std::snprintf(words, sizeof words, " word %llu: expected 0x%08x, observed 0x%08x\n",
                    static_cast<unsigned long long>(d.word), d.expected, d.observed);
      out << "- first difference: " << markdown_text(d.buffer) << words;
    }
    if (!f.reduced_repro.empty()) {
      out << "- reduced: " << markdown_text(replay_command(f.reduced_repro, r.backend)) << "\n";
      if (!f.reduced_symptom.empty()) {
        out << "- reduced keeping: " << markdown_text(f.reduced_symptom) << "\n";
      }
    }
    if (!f.original_repro.empty()) {
      out << "- original program (the variant must give its bytes): "
          << markdown_text(replay_command(f.original_repro, r.backend)) << "\n";
    }
    out << "- replay: "
        << markdown_text(f.repro.empty() ? rerun_command(r.backend, c.level, r.seed, c.id)
                                         : replay_command(f.repro, r.backend))
        << "\n";
  }
  if (!any_failure) out << "\nEvery case passed.\n";

  out << "\n## Cases\n\n| case | level | oracle | status | variants x runs | distinct outputs |"
         " backend ms |\n|---|---|---|---|---|---|---|\n";
  for (const CaseResult& c : r.cases) {
    out << "| " << markdown_text(c.id) << " | " << name_of(c.level) << " | "
        << markdown_text(c.oracle) << " | " << name_of(c.verdict) << " | " << c.variants << " x "
        << c.runs_per_variant << " | " << c.distinct_outputs << " | " << ms(c.backend_us) << " |\n";
  }
  return out.str();
}

}  // namespace vyre::certify
