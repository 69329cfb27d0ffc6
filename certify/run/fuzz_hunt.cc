#include "certify/run/fuzz_hunt.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "certify/run/certification_run.h"
#include "certify/run/run_clock.h"
#include "certify/suite/random_program_cases.h"
#include "spec/support/parallel_for.h"

namespace vyre::certify {
namespace {

/// Programs in the first batch, and the bounds of later ones.
constexpr uint32_t kFirstBatch = 8;
constexpr uint32_t kMaxBatch = 512;
/// Seconds a batch aims for: long enough to fill every lane and core, short
/// enough that a hunt ends near its budget.
constexpr double kBatchSeconds = 2.0;

/// The program indices of a hunt, handed to its workers in ranges from one
/// counter: together they take 0, 1, 2, ... (below max_programs when it is
/// set) each once, so that N workers run the programs one would.
class ProgramCounter {
 public:
  explicit ProgramCounter(uint64_t limit) : limit_(limit) {}

  /// The next range of at most `wanted` indices: its first and its size (0
  /// once the limit is reached or the counter closed).
  std::pair<uint64_t, uint32_t> claim(uint32_t wanted) {
    std::lock_guard lock(mutex_);
    uint32_t count = closed_ ? 0 : wanted;
    if (limit_ != 0) count = static_cast<uint32_t>(std::min<uint64_t>(count, limit_ - next_));
    const uint64_t first = next_;
    next_ += count;
    return {first, count};
  }

  /// No range is handed out any more (a worker failed).
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }

 private:
  std::mutex mutex_;
  const uint64_t limit_;
  uint64_t next_ = 0;
  bool closed_ = false;
};

/// A hunt's counters, summed over its workers as their batches end, and its
/// progress line.
class HuntTotals {
 public:
  HuntTotals(const HuntOptions& o, const HuntFindings& findings, const RunClock& clock)
      : o_(o), findings_(findings), clock_(clock), live_(o.progress && ::isatty(2) == 1) {}

  /// Adds a batch's programs and cases, and shows the progress line.
  void add_batch(const RandomProgramTally& tally, uint64_t cases, uint64_t failures) {
    std::lock_guard lock(mutex_);
    totals_.programs += tally.generated;
    totals_.discarded += tally.discarded;
    totals_.cases += cases;
    totals_.failures += failures;
    if (o_.progress) show_progress(seconds());
  }

  /// The hunt's result once every worker has stopped: the totals, the
  /// findings and the seconds it took; the last progress line is shown.
  HuntResult finish() {
    std::lock_guard lock(mutex_);
    HuntResult result = totals_;
    result.findings = findings_.findings();
    result.seconds = seconds();
    if (o_.progress) {
      show_progress(result.seconds);
      if (live_) std::fputc('\n', stderr);
    }
    return result;
  }

  double seconds() const { return static_cast<double>(clock_.elapsed_us()) / 1e6; }

 private:
  void show_progress(double elapsed) const {
    const double rate = elapsed > 0 ? static_cast<double>(totals_.programs) / elapsed : 0;
    const std::string workers =
        o_.jobs > 1 ? ", " + std::to_string(o_.jobs) + " workers" : std::string();
    std::fprintf(stderr,
                 "%sfuzz: %llu programs, %.1f programs/s, %zu distinct failures, %.0f s%s%s",
                 live_ ? "\r\033[K" : "", static_cast<unsigned long long>(totals_.programs), rate,
                 findings_.count(), elapsed, workers.c_str(), live_ ? "" : "\n");
    std::fflush(stderr);
  }

  const HuntOptions& o_;
  const HuntFindings& findings_;
  const RunClock& clock_;
  const bool live_;
  std::mutex mutex_;
  HuntResult totals_;
};

/// What the workers of one hunt share.
struct HuntShared {
  ProgramCounter programs;
  HuntFindings findings;
  RunClock clock;
  HuntTotals totals;

  explicit HuntShared(const HuntOptions& o)
      : programs(o.max_programs),
        findings(o.out_dir, o.seed, o.backend_name),
        totals(o, findings, clock) {}
};

/// One worker's backend and the device its probe found.
struct WorkerBackend {
  std::unique_ptr<Backend> owned;  // Null for the backend the caller gave.
  Backend* backend = nullptr;
  Capabilities device;
};

/// "worker K of N" (K counted from 1), as errors and scratch folders name it.
std::string worker_name(size_t worker, unsigned jobs) {
  return "worker " + std::to_string(worker + 1) + " of " + std::to_string(jobs);
}

/// The backends of the hunt's workers: `first`, then jobs - 1 opened in turn
/// (before any worker starts, as isolated backends are forked) and probed; an
/// Error naming the first worker whose backend cannot be opened, is not usable
/// or found another device than the first.
Result<std::vector<WorkerBackend>> open_workers(Backend& first, const HuntOptions& o) {
  if (o.jobs == 0) return Error{"a fuzz hunt needs at least one worker (jobs 0)"};
  if (o.jobs > 1 && !o.open_backend) {
    return Error{"a fuzz hunt of " + std::to_string(o.jobs) +
                 " workers needs a way to open their backends (open_backend)"};
  }
  std::vector<WorkerBackend> workers(o.jobs);
  workers[0].backend = &first;
  workers[0].device = first.probe();
  for (size_t k = 1; k < o.jobs; ++k) {
    const std::string who = "fuzz " + worker_name(k, o.jobs);
    auto opened = o.open_backend();
    if (!opened) {
      return Error{who + ": cannot open backend `" + o.backend_name +
                   "`: " + opened.error().message};
    }
    workers[k].owned = std::move(opened).value();
    workers[k].backend = workers[k].owned.get();
    workers[k].device = workers[k].backend->probe();
    const Capabilities& got = workers[k].device;
    const Capabilities& want = workers[0].device;
    if (!got.unavailable.empty()) {
      return Error{who + ": backend `" + o.backend_name + "` is not usable: " + got.unavailable};
    }
    if (got.device_name != want.device_name || got.driver != want.driver) {
      return Error{who + ": backend `" + o.backend_name + "` opened " + got.device_name +
                   " (driver " + got.driver + "), worker 1 " + want.device_name + " (driver " +
                   want.driver + "); every worker must hunt on the same device"};
    }
  }
  return workers;
}

/// The program a hunt case belongs to: "fuzz/S/i" of "fuzz/S/i" and of its
/// variants' "fuzz/S/i/peel".
std::string_view program_of(std::string_view case_id) {
  size_t end = case_id.find('/');
  for (int part = 0; part < 2 && end != std::string_view::npos; ++part) {
    end = case_id.find('/', end + 1);
  }
  return case_id.substr(0, end);
}

/// Programs of an interrupted batch none of whose cases ran: taken, but not
/// hunted, so not counted.
uint32_t programs_not_run(const Report& report) {
  if (!report.not_run) return 0;
  std::set<std::string_view> ran;
  for (const CaseResult& r : report.cases) ran.insert(program_of(r.id));
  std::set<std::string_view> not_run;
  for (const std::string& id : *report.not_run) {
    if (!ran.contains(program_of(id))) not_run.insert(program_of(id));
  }
  return static_cast<uint32_t>(not_run.size());
}

/// One worker's hunt: batches of the programs it claims, each a certification
/// run of their cases on its backend (the same lanes, compiles ahead, retries
/// on a fresh backend and reduction as `vyre-certify` itself) into its own
/// scratch folder, whose repros become findings; until the time is spent or
/// no program is left.
void hunt_batches(const WorkerBackend& worker, const std::filesystem::path& scratch,
                  const HuntOptions& o, HuntShared& shared) {
  Backend& backend = *worker.backend;
  CertifyOptions run;
  run.backend = o.backend_name;
  run.level = Level::L5;
  run.runs = o.runs;
  run.seed = o.seed;
  run.progress = false;
  run.reopen_backend = o.open_backend;
  run.reduction_seconds = o.reduction_seconds;
  run.out_dir = scratch.string();
  run.interrupted = o.interrupted;
  const auto interrupted = [&o] { return o.interrupted && o.interrupted->load() != 0; };
  uint32_t batch = kFirstBatch;
  while (shared.totals.seconds() < o.seconds && !interrupted()) {
    const auto [first, count] = shared.programs.claim(batch);
    if (count == 0) break;
    const double batch_start = shared.totals.seconds();
    RandomProgramTally tally;
    const std::vector<SuiteCase> cases = random_program_range(
        o.seed, first, count, [&](uint64_t i) { return hunt_program_id(o.seed, i); }, tally);
    std::vector<const SuiteCase*> chosen;
    for (const SuiteCase& c : cases) chosen.push_back(&c);
    std::error_code ec;
    std::filesystem::remove_all(scratch, ec);
    // The whole batch's programs at once, on every core: a backend that
    // builds in groups (OpenCL: one clBuildProgram for many kernels) gets
    // them together instead of a few cases ahead of the one running.
    CompiledAhead ahead;
    if (o.compile_batches_ahead) {
      ahead = compile_cases_ahead(backend, chosen, case_run_options(backend, worker.device, run),
                                  host_threads());
    }
    run.compiled_ahead = &ahead;
    const Report report = run_certification(backend, worker.device, chosen, run, tally);
    run.compiled_ahead = nullptr;
    uint64_t failures = 0;
    for (const CaseResult& r : report.cases) {
      if (r.verdict == Verdict::Pass || r.verdict == Verdict::NotSupported) continue;
      ++failures;
      shared.findings.record(r, scratch);
    }
    std::filesystem::remove_all(scratch, ec);
    tally.generated -= programs_not_run(report);
    shared.totals.add_batch(tally, report.cases.size(), failures);
    // The next batch fills about kBatchSeconds at the rate this one ran.
    const double took = std::max(shared.totals.seconds() - batch_start, 1e-3);
    batch = std::clamp<uint32_t>(static_cast<uint32_t>(count * kBatchSeconds / took), kFirstBatch,
                                 kMaxBatch);
  }
}

}  // namespace

std::string hunt_program_id(uint64_t seed, uint64_t index) {
  return "fuzz/" + std::to_string(seed) + "/" + std::to_string(index);
}

Result<HuntResult> hunt(Backend& backend, const HuntOptions& o) {
  auto workers = open_workers(backend, o);
  if (!workers) return workers.error();
  HuntShared shared(o);
  // One thread a worker; a worker that throws (an internal error) stops the
  // others taking programs, and the exception reaches the caller.
  parallel_for(workers->size(), o.jobs, [&](size_t k) {
    const std::filesystem::path scratch =
        std::filesystem::path(o.out_dir) / (".batch-" + std::to_string(k + 1));
    try {
      hunt_batches((*workers)[k], scratch, o, shared);
    } catch (...) {
      shared.programs.close();
      throw;
    }
    return true;
  });
  return shared.totals.finish();
}

}  // namespace vyre::certify
