#include "certify/run/fuzz_hunt.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "certify/run/certification_run.h"
#include "certify/run/hunt_findings.h"
#include "certify/run/run_clock.h"
#include "certify/suite/random_program_cases.h"
#include "spec/support/parallel_for.h"

namespace vyre::certify {
namespace {

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
  HuntFindings findings(o.out_dir, o.seed, o.backend_name);
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
      findings.record(r, scratch);
    }
    std::filesystem::remove_all(scratch, ec);
    result.findings = findings.findings();
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
