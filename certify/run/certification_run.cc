#include "certify/run/certification_run.h"

#include <fnmatch.h>

#include <algorithm>
#include <ctime>
#include <mutex>
#include <optional>
#include <vector>

#include "certify/report/baseline_comparison.h"
#include "certify/report/report_files.h"
#include "certify/run/case_runner.h"
#include "certify/run/failure_reduction.h"
#include "certify/run/preparation_pool.h"
#include "certify/run/progress.h"
#include "certify/run/random_coverage.h"
#include "certify/run/retry_policy.h"
#include "certify/run/run_backends.h"
#include "certify/run/run_order.h"
#include "spec/support/parallel_for.h"

namespace vyre::certify {
namespace {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

/// The device's preferred workgroup size as a size the suite may run at: 0
/// (unknown) means 64, and it never exceeds what the device says it accepts
/// along x or in all.
uint32_t usable_workgroup_size(const Capabilities& device) {
  uint32_t size = device.preferred_workgroup_size != 0 ? device.preferred_workgroup_size : 64;
  if (device.max_workgroup_size[0] != 0) size = std::min(size, device.max_workgroup_size[0]);
  if (device.max_workgroup_invocations != 0) {
    size = std::min(size, device.max_workgroup_invocations);
  }
  return size;
}

/// Cases that may wait, prepared, ahead of the one running: at least this
/// many, and two per worker so that every core has work queued.
constexpr size_t kPreparationLookahead = 16;

/// Cases run at once, at most, on a backend that takes concurrent dispatches:
/// enough that one case's host work and round trips hide behind the others'.
constexpr uint32_t kMaxCaseLanes = 4;

/// One case's share of the run's phases.
struct PhaseTimes {
  uint64_t reference_us = 0;
  uint64_t compile_us = 0;
  uint64_t dispatch_us = 0;
  /// The device's own share of dispatch_us, from the attempts that measured it.
  uint64_t device_us = 0;
  uint64_t total() const { return reference_us + compile_us + dispatch_us; }
};

/// The result of a case the run's time budget left no time for: a Timeout,
/// so the gate fails closed instead of passing on fewer cases.
CaseResult not_started(const SuiteCase& c, std::chrono::seconds budget) {
  CaseResult r;
  r.id = c.id;
  r.level = c.level;
  r.oracle = c.oracle;
  r.verdict = Verdict::Timeout;
  r.message = "not run: the run's time budget (--time-budget-s " + std::to_string(budget.count()) +
              ") was spent before this case started";
  return r;
}

/// The run's phases, case by case: each case's wait for the preparation
/// pool and what its attempts compiled and dispatched.
class PhaseLedger {
 public:
  explicit PhaseLedger(size_t cases) : phases_(cases) {}

  /// Case `i` waited `waited` us for its expectations: the time the pool's
  /// workers stood on the critical path (their own time per case is in each
  /// case's timing), split between the reference and compile phases in
  /// proportion to the workers' time on that case in each.
  void add_wait(size_t i, uint64_t waited, const CaseExpectations& e) {
    const uint64_t worked = e.reference_us + e.compile_us;
    const uint64_t compile = worked == 0 ? 0 : waited * e.compile_us / worked;
    phases_[i].compile_us += compile;
    phases_[i].reference_us += waited - compile;
  }

  /// An attempt of case `i` ended with `r`: compiles done ahead were counted
  /// in the wait; the rest ran in the attempt.
  void add_attempt(size_t i, const CaseResult& r, const CaseExpectations& e) {
    phases_[i].compile_us += r.compile_us - e.compile_us;
    phases_[i].dispatch_us += r.backend_us;
    phases_[i].device_us += r.device_us.value_or(0);
  }

  /// Adds the cases' phases to the report's. Cases that ran side by side
  /// (lanes) overlap, so where their sum exceeds `wall_us`, the time the
  /// cases took together, each phase gets its share of `wall_us` and the
  /// phases still add up to the run's wall time. The device time, when
  /// measured, is scaled as the dispatch phase is, and the dispatch phase is
  /// split into it and the host's work; the report's cases must be in.
  void add_to(Report& report, uint64_t wall_us) const {
    PhaseTimes sum;
    for (const PhaseTimes& p : phases_) {
      sum.reference_us += p.reference_us;
      sum.compile_us += p.compile_us;
      sum.dispatch_us += p.dispatch_us;
      sum.device_us += p.device_us;
    }
    const uint64_t total = sum.total();
    const auto share = [&](uint64_t us) {
      return total <= wall_us ? us
                              : static_cast<uint64_t>(static_cast<double>(us) * wall_us / total);
    };
    report.phase_us["reference"] += share(sum.reference_us);
    report.phase_us["compile"] += share(sum.compile_us);
    report.phase_us["dispatch"] += share(sum.dispatch_us);
    uint32_t measured = 0;
    for (const CaseResult& c : report.cases) measured += c.device_us ? 1 : 0;
    if (measured == 0) return;
    // Each case's device time is part of its dispatch time, so the clamp only
    // absorbs the rounding of the two shares.
    const uint64_t dispatch = report.phase_us["dispatch"];
    const uint64_t device = std::min(share(sum.device_us), dispatch);
    report.dispatch_split = DispatchSplit{device, dispatch - device, measured,
                                          static_cast<uint32_t>(report.cases.size()) - measured};
  }

 private:
  std::vector<PhaseTimes> phases_;
};

/// The run's reduction time (CertifyOptions::reduction_seconds), shared by the lanes: past
/// it, failures are reported unreduced, saying so.
class ReductionBudget {
 public:
  explicit ReductionBudget(const CertifyOptions& options)
      : out_dir_(options.out_dir), seconds_(options.reduction_seconds) {
    limits_.runs = std::min<uint32_t>(options.runs, limits_.runs);
  }

  /// Reduces `r`'s failure from `failing` on `on`, within what is left.
  void reduce(Backend& on, const SuiteCase& c, const TestCase& failing, CaseResult& r) {
    double left = 0;
    {
      std::lock_guard lock(mutex_);
      left = seconds_ - spent_seconds_;
    }
    if (left <= 0) {
      r.message += " [not reduced: the run's reduction time is spent]";
      return;
    }
    const auto start = RunClock::Clock::now();
    ReductionLimits mine = limits_;
    mine.per_failure.max_seconds = std::min(mine.per_failure.max_seconds, left);
    reduce_reported_failure(
        on, c, failing, mine,
        [this](const TestCase& repro) { return write_repro_file(out_dir_, repro); }, r);
    std::lock_guard lock(mutex_);
    spent_seconds_ += static_cast<double>(RunClock::micros_since(start)) / 1e6;
  }

 private:
  const std::string out_dir_;
  const double seconds_;
  ReductionLimits limits_;
  std::mutex mutex_;
  double spent_seconds_ = 0;
};

/// What every case of one run shares.
struct RunContext {
  const CertifyOptions& options;
  const CaseRunOptions& case_options;
  PreparationPool& prepared;
  RunBackends& backends;
  ReductionBudget& reductions;
  PhaseLedger& phases;
  Progress& progress;
  const RunClock::Clock::time_point start;
};

/// One attempt of a case on `on`, with the failing variant it wrote as a
/// repro (the program a case that opts into reduction is reduced from).
struct Attempt {
  CaseResult result;
  std::optional<TestCase> failing;
};

Attempt attempt_case(Backend& on, const SuiteCase& c, const CaseExpectations& expectations,
                     const RunContext& run) {
  Attempt a;
  a.result = run_case(
      on, c, run.case_options,
      [&](const TestCase& repro) {
        a.failing = repro;
        return write_repro_file(run.options.out_dir, repro);
      },
      &expectations);
  return a;
}

/// `e` for a retry on a fresh backend: a program compiled ahead whose
/// compile failed is compiled again there. Its failure may have been the old
/// backend's (its process crashed or hung during another case's call while
/// this compile was in flight); reusing it would fail the retry the same way.
CaseExpectations compiled_again_where_failed(const CaseExpectations& e) {
  CaseExpectations again = e;
  std::erase_if(again.compiled, [](const auto& entry) {
    return entry.second.status != Status::Ok || !entry.second.program;
  });
  return again;
}

/// Case `i` (`c`) from start to result: its expectations from the pool, an
/// attempt, one retry on a fresh backend when the first ended DeviceLost,
/// Timeout or Crashed, and the failure's reduction when the case opts in.
CaseResult run_one_case(size_t i, const SuiteCase& c, RunContext& run) {
  const CertifyOptions& options = run.options;
  if (options.time_budget.count() > 0 &&
      RunClock::Clock::now() - run.start >= options.time_budget) {
    return not_started(c, options.time_budget);
  }
  run.progress.start(i, c.id);
  Backend* on = &run.backends.current();
  const auto wait_start = RunClock::Clock::now();
  const CaseExpectations expectations = run.prepared.take(i);
  run.phases.add_wait(i, RunClock::micros_since(wait_start), expectations);
  Attempt a;
  {
    const RunBackends::SharedUse use(run.backends);
    a = attempt_case(*on, c, expectations, run);
  }
  // A retry, and the reduction of what it found, run where nothing else can
  // take them down: alone after a device loss or hang, on a backend process
  // of their own after a crash (run_backends.h).
  std::optional<RunBackends::SoleUse> sole;
  std::optional<RunBackends::CrashRetryUse> crash_retry;
  if (retried_on_fresh_backend(a.result.verdict) && run.backends.can_reopen()) {
    const CaseResult first = std::move(a.result);
    Result<Backend*> fresh = [&]() -> Result<Backend*> {
      if (first.verdict == Verdict::Crashed) {
        crash_retry.emplace(run.backends);
        return run.backends.for_crash_retry();
      }
      // The old backend's device may be gone or hung: the rest of the run
      // uses a fresh one.
      sole.emplace(run.backends);
      return run.backends.after_loss(*on);
    }();
    if (fresh.ok()) {
      on = *fresh;
      run.phases.add_attempt(i, first, expectations);
      a = attempt_case(*on, c, compiled_again_where_failed(expectations), run);
      // Failed the same way where nothing else ran beside it: this case did
      // it, and nothing may start on what it left.
      if (retried_on_fresh_backend(a.result.verdict)) run.backends.lost_again(*on);
      a.result.message = retried_message(first.verdict, first.message, a.result.message);
      // The report names only the retry's repro: the first attempt's file,
      // unless the retry wrote the same one, would be an orphan.
      const std::string first_repro = first.failure ? first.failure->repro : "";
      if (!a.result.failure || a.result.failure->repro != first_repro) {
        remove_repro_file(options.out_dir, first_repro);
      }
    } else {
      a.result = first;
      a.result.message =
          retried_message(first.verdict, first.message,
                          "no fresh backend could be opened: " + fresh.error().message);
    }
    a.result.retried = std::string(name_of(first.verdict));
  }
  if (reduces_failures(c) && a.result.failure && a.failing) {
    std::optional<RunBackends::SharedUse> shared;
    Backend* reducing_on = nullptr;
    if (crash_retry) {
      Result<Backend*> retry_backend = run.backends.for_crash_retry();
      if (retry_backend.ok()) {
        reducing_on = *retry_backend;
      } else {
        a.result.message +=
            " [not reduced: no fresh backend could be opened: " + retry_backend.error().message +
            "]";
      }
    } else {
      if (!sole) shared.emplace(run.backends);
      reducing_on = &run.backends.current();
    }
    if (reducing_on) run.reductions.reduce(*reducing_on, c, *a.failing, a.result);
  }
  run.phases.add_attempt(i, a.result, expectations);
  run.progress.finish(a.result);
  return std::move(a.result);
}

/// The report's header: what was run, where, when and how.
Report started_report(const Backend& backend, const Capabilities& device,
                      const CertifyOptions& options) {
  Report report;
  report.backend = options.backend.empty() ? backend.name() : options.backend;
  report.seed = options.seed;
  report.runs = options.runs;
  report.filter = options.filter;
  report.requested_level = options.level;
  report.started_utc = utc_now();
  report.device = device;
  if (options.seed_policy) report.seed_policy = std::string(name_of(*options.seed_policy));
  if (options.time_budget.count() > 0) {
    report.time_budget_s = static_cast<uint32_t>(options.time_budget.count());
  }
  return report;
}

/// The cases' results in catalog order; a case without one (only an
/// interrupted run leaves any) is listed as not run.
void add_results(Report& report, const std::vector<const SuiteCase*>& chosen,
                 std::vector<std::optional<CaseResult>>& results) {
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i]) {
      report.cases.push_back(std::move(*results[i]));
    } else {
      if (!report.not_run) report.not_run.emplace();
      report.not_run->push_back(chosen[i]->id);
    }
  }
}

/// The verdicts, the L5 summary and the comparison with known failures.
void judge_report(Report& report, const Backend& backend,
                  const std::vector<const SuiteCase*>& chosen, const CertifyOptions& options,
                  const RandomProgramTally& random_tally) {
  report.driver_cache = backend.driver_cache();
  report.random_programs = summarize_random_programs(chosen, random_tally);
  judge(report);
  if (!options.known_failures.empty() || !options.known_failures_source.empty()) {
    report.baseline = compare_with_known_failures(report.cases, options.known_failures,
                                                  options.known_failures_source);
  }
}

}  // namespace

CaseRunOptions case_run_options(const Backend& backend, const Capabilities& device,
                                const CertifyOptions& options) {
  CaseRunOptions run_options;
  run_options.runs = options.runs;
  run_options.preferred_workgroup_size = usable_workgroup_size(device);
  run_options.case_budget = options.case_budget;
  run_options.encodings = backend.encodings();
  // A many-core host has cores to spare for the few long expectations the
  // lanes would wait for (the R-MAT cases on the H200); on a small one the
  // reference is off the critical path and more threads would only compete
  // with the device's (lavapipe's, PoCL's) for the same cores.
  if (host_threads() >= kFarLookaheadThreads) run_options.reference_threads = host_threads();
  return run_options;
}

std::vector<const SuiteCase*> select_cases(const std::vector<SuiteCase>& cases,
                                           const CertifyOptions& options) {
  std::vector<const SuiteCase*> chosen;
  for (const SuiteCase& c : cases) {
    if (c.level > options.level) continue;
    if (!options.filter.empty() && fnmatch(options.filter.c_str(), c.id.c_str(), 0) != 0) continue;
    chosen.push_back(&c);
  }
  return chosen;
}

Report run_certification(Backend& backend, const Capabilities& device,
                         const std::vector<const SuiteCase*>& chosen, const CertifyOptions& options,
                         const RandomProgramTally& random_tally) {
  Report report = started_report(backend, device, options);
  const CaseRunOptions case_options = case_run_options(backend, device, options);
  const std::vector<size_t> order = run_order(chosen);
  std::vector<const SuiteCase*> in_run_order;
  for (size_t i : order) in_run_order.push_back(chosen[i]);
  // The reference (and the backend's compiler, when it allows) works ahead on
  // every host core while the backend runs; the OS shares the cores when the
  // backend uses them too (lavapipe).
  const unsigned workers = host_threads();
  const uint32_t lanes = std::clamp<uint32_t>(backend.concurrent_dispatches(), 1, kMaxCaseLanes);
  PreparationPool prepared(
      in_run_order, case_options, backend.compiles_concurrently() ? &backend : nullptr, workers,
      std::max<size_t>(kPreparationLookahead, 2 * size_t{workers}) + lanes, options.compiled_ahead);
  Progress progress(chosen.size(), options.progress);
  RunBackends backends(backend, options.reopen_backend);
  ReductionBudget reductions(options);
  PhaseLedger phases(chosen.size());
  RunContext run{options,    case_options, prepared, backends,
                 reductions, phases,       progress, RunClock::Clock::now()};
  std::vector<std::optional<CaseResult>> results(chosen.size());
  parallel_for(chosen.size(), lanes, [&](size_t k) {
    if (options.interrupted && options.interrupted->load() != 0) return false;
    results[order[k]] = run_one_case(k, *in_run_order[k], run);
    return true;
  });
  const uint64_t cases_us = RunClock::micros_since(run.start);
  add_results(report, chosen, results);
  phases.add_to(report, cases_us);
  judge_report(report, backend, chosen, options, random_tally);
  return report;
}

void record_other_time(Report& report) {
  uint64_t measured = 0;
  for (const auto& [phase, us] : report.phase_us) {
    if (phase != kOtherPhase) measured += us;
  }
  report.phase_us[std::string(kOtherPhase)] =
      report.wall_us > measured ? report.wall_us - measured : 0;
}

}  // namespace vyre::certify
