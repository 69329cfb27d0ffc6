#include "certify/run/fuzz_hunt.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "certify/run/case_runner.h"
#include "certify/run/failure_reduction.h"
#include "certify/run/run_clock.h"
#include "certify/suite/random_program_cases.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

/// FNV-1a, 64 bits: a stable name for a reduced case, not a security hash.
std::string text_hash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char ch : text) {
    h ^= static_cast<uint8_t>(ch);
    h *= 0x100000001b3ULL;
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::string case_text(const TestCase& tc, std::string_view what) {
  return "# vyre-certify fuzz: " + std::string(what) + " " + tc.name + "\n" + print_case(tc);
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

/// Writes a new finding's folder; false when its reduced form was seen.
bool record_finding(const HuntOptions& o, const SuiteCase& c, uint64_t program_seed,
                    const CaseResult& r, const TestCase& failing,
                    const std::optional<ReducedFailure>& reduced, std::set<std::string>& seen,
                    HuntFinding& finding) {
  TestCase key = reduced ? reduced->reduced : failing;
  key.name.clear();
  finding.hash = text_hash(print_case(key));
  if (!seen.insert(finding.hash).second) return false;
  finding.case_id = c.id;
  finding.program_seed = program_seed;
  finding.verdict = r.verdict;
  finding.message = r.message;
  const std::filesystem::path dir = std::filesystem::path(o.out_dir) / finding.hash;
  finding.dir = dir.string();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  write_text(dir / "original.vyre", case_text(failing, "original of"));
  if (reduced) write_text(dir / "reduced.vyre", case_text(reduced->reduced, "reduced"));
  const TestCase* unrewritten = original_of(c);
  if (unrewritten) {
    write_text(dir / "unrewritten.vyre", case_text(*unrewritten, "original program of"));
  }
  std::string readme = "verdict: " + std::string(name_of(r.verdict)) + "\nmessage: " + r.message +
                       "\ncase: " + c.id + "\nprogram seed: " + std::to_string(program_seed) +
                       "\n(hunt --seed " + std::to_string(o.seed) + ")\n";
  if (r.failure) readme += "variant: " + r.failure->variant + "\n";
  if (unrewritten) {
    readme +=
        "A metamorphic variant: unrewritten.vyre is the program it was rewritten from; "
        "both must give the same bytes.\n";
  }
  readme += "replay:\n  vyre-certify run " + (dir / "original.vyre").string() + " --backend " +
            o.backend_name + "\n";
  if (reduced) {
    readme += "  vyre-certify run " + (dir / "reduced.vyre").string() + " --backend " +
              o.backend_name + "\n";
  } else {
    readme += "(not reduced: the failure did not repeat)\n";
  }
  write_text(dir / "README.txt", readme);
  return true;
}

void show_progress(const HuntResult& r, double elapsed, bool live) {
  const double rate = elapsed > 0 ? static_cast<double>(r.programs) / elapsed : 0;
  std::fprintf(stderr, "%sfuzz: %llu programs, %.1f programs/s, %zu distinct failures, %.0f s%s",
               live ? "\r\033[K" : "", static_cast<unsigned long long>(r.programs), rate,
               r.findings.size(), elapsed, live ? "" : "\n");
  std::fflush(stderr);
}

}  // namespace

std::string hunt_program_id(uint64_t seed, uint64_t index) {
  return "fuzz/" + std::to_string(seed) + "/" + std::to_string(index);
}

HuntResult hunt(Backend& backend, const HuntOptions& o) {
  const RunClock clock;
  const bool live = o.progress && ::isatty(2) == 1;
  HuntResult result;
  std::set<std::string> seen;
  CaseRunOptions run_options;
  run_options.runs = o.runs;
  run_options.preferred_workgroup_size = o.preferred_workgroup_size;
  ReductionLimits limits;
  limits.runs = o.runs;
  double last_shown = 0;
  const auto elapsed = [&] { return static_cast<double>(clock.elapsed_us()) / 1e6; };
  for (uint64_t index = 0; elapsed() < o.seconds; ++index) {
    // Past 2^32 programs the index wraps; a hunt never gets that far.
    const uint64_t program_seed = random_program_seed(o.seed, static_cast<uint32_t>(index));
    ++result.programs;
    auto cases = random_program_suite_cases(program_seed, hunt_program_id(o.seed, index), o.seed);
    if (!cases) {
      ++result.discarded;
      continue;
    }
    for (const SuiteCase& c : *cases) {
      std::optional<TestCase> failing;
      // Kept in memory: a finding's folder is named by its reduced form, so
      // it is written once reduced; the path is the file's name there.
      const ReproWriter keep = [&](const TestCase& repro) {
        failing = repro;
        return std::string("original.vyre");
      };
      CaseResult r = run_case(backend, c, run_options, keep);
      ++result.cases;
      if (r.verdict == Verdict::Pass || !failing) continue;
      ++result.failures;
      limits.per_failure.max_seconds = std::max(1.0, std::min(20.0, o.seconds - elapsed()));
      const auto reduced = reduce_failure(backend, *failing, r.verdict, limits);
      HuntFinding finding;
      if (record_finding(o, c, program_seed, r, *failing, reduced, seen, finding)) {
        result.findings.push_back(std::move(finding));
      }
    }
    if (o.progress && elapsed() - last_shown >= 1.0) {
      last_shown = elapsed();
      show_progress(result, last_shown, live);
    }
  }
  result.seconds = elapsed();
  if (o.progress) {
    show_progress(result, result.seconds, live);
    if (live) std::fputc('\n', stderr);
  }
  return result;
}

}  // namespace vyre::certify
