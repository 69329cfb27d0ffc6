#include "certify/run/certification_run.h"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <ctime>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "certify/report/baseline_comparison.h"
#include "certify/report/report_files.h"
#include "certify/run/case_runner.h"
#include "certify/run/failure_reduction.h"
#include "certify/run/preparation_pool.h"
#include "certify/run/progress.h"
#include "certify/run/random_coverage.h"
#include "certify/run/retry_policy.h"

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

/// Splits `waited` (the run's wait on the preparation pool for one case)
/// between the reference and compile phases in proportion to the workers'
/// time on that case in each.
void add_preparation_wait(PhaseTimes& phase, uint64_t waited, const CaseExpectations& e) {
  const uint64_t worked = e.reference_us + e.compile_us;
  const uint64_t compile = worked == 0 ? 0 : waited * e.compile_us / worked;
  phase.compile_us += compile;
  phase.reference_us += waited - compile;
}

/// Adds the cases' phases to the report's. Cases that ran side by side
/// (lanes) overlap, so where their sum exceeds `wall_us`, the time the cases
/// took together, each phase gets its share of `wall_us` and the phases still
/// add up to the run's wall time.
/// The device time, when measured, is scaled as the dispatch phase is, and
/// the dispatch phase is split into it and the host's work.
void add_phases(Report& report, const std::vector<PhaseTimes>& phases, uint64_t wall_us) {
  PhaseTimes sum;
  for (const PhaseTimes& p : phases) {
    sum.reference_us += p.reference_us;
    sum.compile_us += p.compile_us;
    sum.dispatch_us += p.dispatch_us;
    sum.device_us += p.device_us;
  }
  const uint64_t total = sum.total();
  const auto share = [&](uint64_t us) {
    return total <= wall_us ? us : static_cast<uint64_t>(static_cast<double>(us) * wall_us / total);
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

/// Adds one attempt's backend and device time to its case's phases.
void add_dispatch(PhaseTimes& phase, const CaseResult& r) {
  phase.dispatch_us += r.backend_us;
  phase.device_us += r.device_us.value_or(0);
}

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

/// Opens and probes a fresh backend for a retry; an Error says why none is usable.
Result<std::unique_ptr<Backend>> fresh_backend(const CertifyOptions& options) {
  auto opened = options.reopen_backend();
  if (!opened) return opened.error();
  const Capabilities caps = (*opened)->probe();
  if (!caps.unavailable.empty()) return Error{caps.unavailable};
  return opened;
}

}  // namespace

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
  const auto run_start = RunClock::Clock::now();
  const auto write_file = [&](const TestCase& repro) {
    return write_repro_file(options.out_dir, repro);
  };
  ReductionLimits limits;
  limits.runs = std::min<uint32_t>(options.runs, limits.runs);
  CaseRunOptions run_options;
  run_options.runs = options.runs;
  run_options.preferred_workgroup_size = usable_workgroup_size(device);
  run_options.case_budget = options.case_budget;
  // The reference (and the backend's compiler, when it allows) works ahead on
  // every host core while the backend runs; the OS shares the cores when the
  // backend uses them too (lavapipe).
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  const uint32_t lanes = std::clamp<uint32_t>(backend.concurrent_dispatches(), 1, kMaxCaseLanes);
  PreparationPool prepared(chosen, run_options,
                           backend.compiles_concurrently() ? &backend : nullptr, workers,
                           std::max<size_t>(kPreparationLookahead, 2 * size_t{workers}) + lanes);
  Progress progress(chosen.size(), options.progress);

  // What the lanes share, under `mutex`: the backend cases start on (the
  // caller's, until a retry opens a fresh one; a lane still running on the
  // old one keeps it), the progress line and the run's reduction time.
  std::mutex mutex;
  Backend* current = &backend;
  std::vector<std::unique_ptr<Backend>> reopened;
  double reduction_seconds = 0;
  std::vector<std::optional<CaseResult>> results(chosen.size());
  std::vector<PhaseTimes> phases(chosen.size());
  std::atomic<size_t> next{0};
  // A fresh backend in place of `on` after a device loss or hang: opened
  // once, by the first lane to need it; the lanes that follow take it.
  const auto backend_after_loss = [&](Backend* on) -> Result<Backend*> {
    std::lock_guard lock(mutex);
    if (current == on) {
      auto fresh = fresh_backend(options);
      if (!fresh) return fresh.error();
      reopened.push_back(std::move(fresh).value());
      current = reopened.back().get();
    }
    return current;
  };
  // Reduces `r`'s failure from `failing` within what is left of the run's
  // reduction time.
  const auto reduce = [&](Backend& on, const SuiteCase& c, const TestCase& failing, CaseResult& r) {
    double left = 0;
    {
      std::lock_guard lock(mutex);
      left = kRunReductionSeconds - reduction_seconds;
    }
    if (left <= 0) {
      r.message += " [not reduced: the run's reduction time is spent]";
      return;
    }
    const auto start = RunClock::Clock::now();
    ReductionLimits mine = limits;
    mine.per_failure.max_seconds = std::min(mine.per_failure.max_seconds, left);
    reduce_reported_failure(on, c, failing, mine, write_file, r);
    std::lock_guard lock(mutex);
    reduction_seconds += static_cast<double>(RunClock::micros_since(start)) / 1e6;
  };
  const auto lane = [&] {
    // The last repro a case wrote: the failing variant, which a case that
    // opts into reduction is reduced from.
    std::optional<TestCase> last_repro;
    const auto write_repro = [&](const TestCase& repro) {
      last_repro = repro;
      return write_file(repro);
    };
    for (size_t i = next.fetch_add(1); i < chosen.size(); i = next.fetch_add(1)) {
      const SuiteCase& c = *chosen[i];
      PhaseTimes& phase = phases[i];
      if (options.interrupted && options.interrupted->load() != 0) break;
      if (options.time_budget.count() > 0 &&
          RunClock::Clock::now() - run_start >= options.time_budget) {
        results[i] = not_started(c, options.time_budget);
        continue;
      }
      Backend* on = nullptr;
      {
        std::lock_guard lock(mutex);
        progress.start(i, c.id);
        on = current;
      }
      // The reference and compile phases count the wait for the pool: the
      // time its workers stood on the critical path (their own time per case
      // is in each case's timing).
      const auto wait_start = RunClock::Clock::now();
      const CaseExpectations expectations = prepared.take(i);
      add_preparation_wait(phase, RunClock::micros_since(wait_start), expectations);
      last_repro.reset();
      CaseResult r = run_case(*on, c, run_options, write_repro, &expectations);
      if (retried_on_fresh_backend(r.verdict) && options.reopen_backend) {
        // The old backend's device may be gone or hung: the rest of the run
        // uses a fresh one.
        const Verdict first = r.verdict;
        const std::string first_message = r.message;
        const std::string first_repro = r.failure ? r.failure->repro : "";
        Result<Backend*> fresh = backend_after_loss(on);
        if (fresh.ok()) {
          on = *fresh;
          phase.compile_us += r.compile_us - expectations.compile_us;
          add_dispatch(phase, r);
          last_repro.reset();
          r = run_case(*on, c, run_options, write_repro, &expectations);
          r.message = retried_message(first, first_message, r.message);
          // The report names only the retry's repro: the first attempt's
          // file, unless the retry wrote the same one, would be an orphan.
          if (!r.failure || r.failure->repro != first_repro) {
            remove_repro_file(options.out_dir, first_repro);
          }
        } else {
          r.message = retried_message(first, first_message,
                                      "no fresh backend could be opened: " + fresh.error().message);
        }
        r.retried = std::string(name_of(first));
      }
      if (reduces_failures(c) && r.failure && last_repro) reduce(*on, c, *last_repro, r);
      // Compiles done ahead were counted in the wait; the rest ran here.
      phase.compile_us += r.compile_us - expectations.compile_us;
      add_dispatch(phase, r);
      {
        std::lock_guard lock(mutex);
        progress.finish(r);
      }
      results[i] = std::move(r);
    }
  };
  const auto cases_start = RunClock::Clock::now();
  std::vector<std::thread> others;
  for (uint32_t l = 1; l < lanes; ++l) others.emplace_back(lane);
  lane();
  for (std::thread& t : others) t.join();
  const uint64_t cases_us = RunClock::micros_since(cases_start);
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i]) {
      report.cases.push_back(std::move(*results[i]));
    } else {
      // Only an interrupted run leaves a case without a result.
      if (!report.not_run) report.not_run.emplace();
      report.not_run->push_back(chosen[i]->id);
    }
  }
  add_phases(report, phases, cases_us);
  report.driver_cache = backend.driver_cache();
  report.random_programs = summarize_random_programs(chosen, random_tally);
  judge(report);
  if (!options.known_failures.empty() || !options.known_failures_source.empty()) {
    report.baseline = compare_with_known_failures(report.cases, options.known_failures,
                                                  options.known_failures_source);
  }
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
