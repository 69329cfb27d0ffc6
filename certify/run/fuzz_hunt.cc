#include "certify/run/fuzz_hunt.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "certify/report/replay_command.h"
#include "certify/run/certification_run.h"
#include "certify/run/output_judge.h"
#include "certify/run/run_clock.h"
#include "certify/suite/random_program_cases.h"
#include "spec/support/parallel_for.h"
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

/// Differing words listed per buffer in a finding's README, and lines in
/// all (a backend may return any number of buffers): enough to see the
/// pattern of a wrong result, few enough that the file stays small.
constexpr size_t kReadmeWordsPerBuffer = 8;
constexpr size_t kReadmeDifferenceLines = 64;

/// What the backend gave in the failing run, against what it should have:
/// the first differing words of each differing buffer, so that a finding can
/// be triaged without running it on the device again.
std::string observed_section(const Failure& f) {
  if (f.observed.empty()) return "observed: no outputs came back (see the message)\n";
  std::string listed = listed_differences(f.expected, f.observed, kReadmeWordsPerBuffer);
  if (listed.empty())
    return "observed: no word differs from the expected bytes (see the message)\n";
  size_t end = 0;  // Just past the last line kept.
  for (size_t line = 0; line < kReadmeDifferenceLines && end != std::string::npos; ++line) {
    end = listed.find('\n', end);
    if (end != std::string::npos) ++end;
  }
  if (end != std::string::npos && end < listed.size()) {
    listed.resize(end);
    listed += "  (more differences not listed)\n";
  }
  return "observed, against expected (u32 words at word offsets, at most " +
         std::to_string(kReadmeWordsPerBuffer) + " a buffer):\n" + listed;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
}

/// A repro file a batch wrote (a path relative to its folder), parsed; nullopt
/// when there is none or it cannot be read back.
std::optional<TestCase> read_repro(const std::filesystem::path& batch_dir,
                                   const std::string& relative) {
  if (relative.empty()) return std::nullopt;
  std::ifstream f(batch_dir / relative, std::ios::binary);
  if (!f) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  Result<TestCase> parsed = parse_case(text);
  if (!parsed) return std::nullopt;
  return std::move(parsed).value();
}

/// Writes a new finding's folder from a failing case of a batch; false when
/// its reduced form (or, unreduced, its failing form) was seen.
bool record_finding(const HuntOptions& o, const CaseResult& r,
                    const std::filesystem::path& batch_dir, std::set<std::string>& seen,
                    HuntFinding& finding) {
  const std::optional<TestCase> failing = read_repro(batch_dir, r.failure->repro);
  if (!failing) return false;
  const std::optional<TestCase> reduced = read_repro(batch_dir, r.failure->reduced_repro);
  const std::optional<TestCase> unrewritten = read_repro(batch_dir, r.failure->original_repro);
  TestCase key = reduced ? *reduced : *failing;
  key.name.clear();
  finding.hash = text_hash(print_case(key));
  if (!seen.insert(finding.hash).second) return false;
  finding.case_id = r.id;
  finding.verdict = r.verdict;
  finding.message = r.message;
  const std::filesystem::path dir = std::filesystem::path(o.out_dir) / finding.hash;
  finding.dir = dir.string();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  write_text(dir / "original.vyre", case_text(*failing, "original of"));
  if (reduced) write_text(dir / "reduced.vyre", case_text(*reduced, "reduced"));
  if (unrewritten) {
    write_text(dir / "unrewritten.vyre", case_text(*unrewritten, "original program of"));
  }
  std::string readme = "verdict: " + std::string(name_of(r.verdict)) + "\nmessage: " + r.message +
                       "\ncase: " + r.id + "\n(hunt --seed " + std::to_string(o.seed) + ")\n";
  readme += "variant: " + r.failure->variant + "\n";
  readme += observed_section(*r.failure);
  if (unrewritten) {
    readme +=
        "A metamorphic variant: unrewritten.vyre is the program it was rewritten from; "
        "both must give the same bytes.\n";
  }
  readme += "replay:\n  " + replay_command((dir / "original.vyre").string(), o.backend_name) + "\n";
  if (reduced) {
    readme += "  " + replay_command((dir / "reduced.vyre").string(), o.backend_name) + "\n";
    readme += "reduced keeping: " + r.failure->reduced_symptom + "\n";
    readme += "reduce further (the hunt's own reduction stops at its cap):\n  " +
              reduce_command((dir / "reduced.vyre").string(), o.backend_name) + "\n";
  } else {
    readme += "(not reduced: the message says why)\n";
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

/// Programs in the first batch, and the bounds of later ones.
constexpr uint32_t kFirstBatch = 8;
constexpr uint32_t kMaxBatch = 512;
/// Seconds a batch aims for: long enough to fill every lane and core, short
/// enough that a hunt ends near its budget.
constexpr double kBatchSeconds = 2.0;

}  // namespace

std::string hunt_program_id(uint64_t seed, uint64_t index) {
  return "fuzz/" + std::to_string(seed) + "/" + std::to_string(index);
}

HuntResult hunt(Backend& backend, const HuntOptions& o) {
  const RunClock clock;
  const bool live = o.progress && ::isatty(2) == 1;
  HuntResult result;
  std::set<std::string> seen;
  const Capabilities device = backend.probe();
  // Each batch is a certification run of its programs' cases: the same lanes,
  // compiles ahead on every core, retries on a fresh backend and reduction as
  // `vyre-certify` itself, into a scratch folder whose repros become findings.
  CertifyOptions run;
  run.backend = o.backend_name;
  run.level = Level::L5;
  run.runs = o.runs;
  run.seed = o.seed;
  run.progress = false;
  run.reopen_backend = o.reopen_backend;
  run.reduction_seconds = o.reduction_seconds;
  const std::filesystem::path scratch = std::filesystem::path(o.out_dir) / ".batch";
  const auto elapsed = [&] { return static_cast<double>(clock.elapsed_us()) / 1e6; };
  uint32_t batch = kFirstBatch;
  uint64_t first = 0;  // Programs first, first + 1, ... follow one another.
  while (elapsed() < o.seconds && (o.max_programs == 0 || first < o.max_programs)) {
    if (o.max_programs != 0) {
      batch = static_cast<uint32_t>(std::min<uint64_t>(batch, o.max_programs - first));
    }
    const double batch_start = elapsed();
    RandomProgramTally tally;
    const std::vector<SuiteCase> cases = random_program_range(
        o.seed, first, batch, [&](uint64_t i) { return hunt_program_id(o.seed, i); }, tally);
    first += batch;
    result.programs += tally.generated;
    result.discarded += tally.discarded;
    std::vector<const SuiteCase*> chosen;
    for (const SuiteCase& c : cases) chosen.push_back(&c);
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    run.out_dir = scratch.string();
    // The whole batch's programs at once, on every core: a backend that
    // builds in groups (OpenCL: one clBuildProgram for many kernels) gets
    // them together instead of a few cases ahead of the one running.
    CompiledAhead ahead;
    if (o.compile_batches_ahead) {
      ahead = compile_cases_ahead(backend, chosen, case_run_options(backend, device, run),
                                  host_threads());
    }
    run.compiled_ahead = &ahead;
    const Report report = run_certification(backend, device, chosen, run, tally);
    run.compiled_ahead = nullptr;
    for (const CaseResult& r : report.cases) {
      ++result.cases;
      if (r.verdict == Verdict::Pass || r.verdict == Verdict::NotSupported) continue;
      ++result.failures;
      HuntFinding finding;
      if (r.failure && record_finding(o, r, scratch, seen, finding)) {
        result.findings.push_back(std::move(finding));
      }
    }
    std::filesystem::remove_all(scratch, ec);
    // The next batch fills about kBatchSeconds at the rate this one ran.
    const double took = std::max(elapsed() - batch_start, 1e-3);
    batch = std::clamp<uint32_t>(static_cast<uint32_t>(batch * kBatchSeconds / took), kFirstBatch,
                                 kMaxBatch);
    if (o.progress) show_progress(result, elapsed(), live);
  }
  result.seconds = elapsed();
  if (o.progress) {
    show_progress(result, result.seconds, live);
    if (live) std::fputc('\n', stderr);
  }
  return result;
}

}  // namespace vyre::certify
