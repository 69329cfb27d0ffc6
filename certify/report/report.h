// The certification report: what ran, on what, and the verdict per case and
// per level. Written as report.json (the certificate), report.md and junit.xml.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.h"
#include "certify/report/known_failure.h"
#include "certify/suite/level.h"

namespace vyre::certify {

/// Verdict of one case; the certifier's, from the backend's statuses and bytes.
enum class Verdict : uint8_t {
  Pass,
  Fail,          ///< Wrong bytes, or runs that disagree.
  NotSupported,  ///< The backend said the case needs more than it offers.
  CompileError,
  DeviceLost,
  Timeout,
  BadOutput,
  Error,
  InvalidCase,  ///< The suite itself is wrong: reference and spec table disagree.
  Crashed,      ///< The backend's process died running the case (isolation).
};

/// "pass", "fail", ...
std::string_view name_of(Verdict v);
/// The verdict a non-Ok backend status becomes.
Verdict verdict_of(Status s);
/// The verdict whose name_of is exactly `name`; nullopt for any other text.
std::optional<Verdict> verdict_named(std::string_view name);

/// Where expected and observed first differ, as u32 words.
struct FirstDifference {
  std::string buffer;
  uint64_t word = 0;
  uint32_t expected = 0;
  uint32_t observed = 0;
};

/// Everything needed to understand and replay a failing case.
struct Failure {
  /// Which variant failed: workgroup size, grid, output initialisation, run.
  std::string variant;
  std::string detail;
  BufferSet inputs;
  BufferSet expected;
  BufferSet observed;
  std::optional<FirstDifference> first_difference;
  /// Repro case file, relative to the report folder; empty if none.
  std::string repro;
  /// The repro reduced automatically (cases that opt in: L5), still failing
  /// the same way; empty if none.
  std::string reduced_repro;
  /// The symptom the reduction kept (failure_symptom.h's describe: "fail:
  /// buffer `out` differs"); empty where nothing was reduced.
  std::string reduced_symptom;
  /// For a metamorphic variant: the original program it was rewritten from,
  /// as a repro expecting the same bytes; empty otherwise.
  std::string original_repro;
};

/// Result of one suite case.
struct CaseResult {
  std::string id;
  Level level = Level::L1;
  std::string oracle;
  Verdict verdict = Verdict::Error;
  std::string message;
  uint32_t variants = 0;
  uint32_t runs_per_variant = 0;
  uint64_t dispatches = 0;
  /// Most distinct canonical outputs any variant produced over its runs (1 = deterministic).
  uint32_t distinct_outputs = 0;
  uint64_t compile_us = 0;
  uint64_t backend_us = 0;
  uint64_t reference_us = 0;
  /// Mean per-dispatch overhead the backend measured over its batches
  /// (BatchTiming::per_dispatch_us), microseconds; 0 when it reported none.
  double per_dispatch_us = 0;
  /// The device's own time executing the case's batches (timestamp queries,
  /// event profiling), a part of backend_us; nullopt when the backend
  /// measured none, or not for every batch (a host-driven case's engine
  /// runs report none).
  std::optional<uint64_t> device_us;
  std::optional<Failure> failure;
  /// The status name of a first attempt that ended DeviceLost, Timeout or Crashed
  /// when the case was run once more on a fresh backend; nullopt otherwise.
  std::optional<std::string> retried;
};

/// Verdict of one level.
struct LevelSummary {
  Level level = Level::L1;
  uint32_t cases = 0;
  uint32_t passed = 0;
  uint32_t failed = 0;
  uint32_t not_supported = 0;
  bool certified = false;
  /// Why the level is not certified (empty when it is).
  std::string reason;
};

/// Reached entries of one category of the coverage universe
/// (generators/coverage.h): "bin", "cast", "load", ... for operations by
/// type, "kind@context" for expression kinds by context.
struct CoverageCategory {
  std::string category;
  uint32_t reached = 0;
  uint32_t universe = 0;
};

/// L5's random programs in a run: how many were drawn and screened out, and
/// which operations x types x contexts the programs that ran exercised.
struct RandomProgramSummary {
  /// Programs drawn from the seed.
  uint32_t generated = 0;
  /// Rejected or non-conforming on the reference: never run on the backend.
  uint32_t discarded = 0;
  /// Programs selected for this run (metamorphic variants not counted).
  uint32_t programs = 0;
  std::vector<CoverageCategory> categories;
  /// Universe entries no program of the run reached, one line each.
  std::vector<std::string> not_reached;
};

/// Which part of a sharded run a report holds (`--shard I/N`).
struct ShardInfo {
  /// 1-based: shard 1 of N .. N of N.
  uint32_t index = 0;
  uint32_t count = 0;
  /// Cases the unsharded selection holds (all N shards together).
  uint32_t selected = 0;
  /// sha256_hex of the unsharded selection's ids, sorted, each followed by
  /// '\n' (shard_split.h): the shards of one run carry the same digest.
  std::string selection_digest;
};

/// A run compared with its known failures (a --baseline report's failing
/// cases, or a gate file's list); each list in run order, of run cases only.
struct BaselineComparison {
  /// Where the known failures came from: the baseline report's path or the gate file's.
  std::string source;
  /// Failing now and not known: these fail the gate.
  std::vector<std::string> new_failures;
  /// Known failures that now pass.
  std::vector<std::string> fixed;
  /// Known failures still failing.
  std::vector<std::string> still_failing;
  /// Why each case of `fixed` and `still_failing` is known to fail (the
  /// gate file's reason and link, or the baseline it failed in), in case order.
  std::vector<KnownFailure> known;
};

/// The dispatch phase split into the device's own execution time and the
/// host's work around it (uploads, recording, submission, waits, readback,
/// comparison), over the cases whose backend measured device time.
struct DispatchSplit {
  /// Device time of the measured cases, scaled as the dispatch phase is
  /// when cases ran side by side; at most the dispatch phase.
  uint64_t device_us = 0;
  /// The dispatch phase less device_us: host work, and all of an
  /// unmeasured case's time.
  uint64_t host_us = 0;
  uint32_t measured_cases = 0;    ///< Cases with a device time.
  uint32_t unmeasured_cases = 0;  ///< Cases without (host-driven, failed early).
};

/// How many of the slowest cases report.json and report.md list with their
/// device/host split.
inline constexpr size_t kSlowestCasesListed = 10;

/// A whole certification run.
struct Report {
  static constexpr int kSchemaVersion = 1;
  static constexpr std::string_view kSpecSnapshot = "vyre-0.4.0+pin.1";
  std::string suite_version;
  std::string backend;
  Capabilities device;
  uint64_t seed = 0;
  uint32_t runs = 0;
  std::string filter;
  Level requested_level = kDefaultLevel;
  std::string started_utc;
  uint64_t wall_us = 0;
  /// Wall time per phase ("open", "catalog", "compile", "dispatch", "reference",
  /// "other"); they add up to wall_us.
  std::map<std::string, uint64_t> phase_us;
  /// Present when the backend measured device time for at least one case.
  std::optional<DispatchSplit> dispatch_split;
  std::vector<CaseResult> cases;
  std::vector<LevelSummary> levels;
  /// Present when the run selected L5 cases.
  std::optional<RandomProgramSummary> random_programs;
  /// Present on the report of one shard of a sharded run.
  std::optional<ShardInfo> shard;
  /// Present on a report merged from shards: each shard's certificate
  /// digest, in shard order.
  std::optional<std::vector<std::string>> shards;
  /// Present when the run was given known failures (--baseline, gate file).
  std::optional<BaselineComparison> baseline;
  bool certified = false;
  std::string reason;
  /// How the seed was chosen ("fixed", "date"); absent in older reports.
  std::optional<std::string> seed_policy;
  /// The whole run's time budget in seconds (--time-budget-s), when it had one.
  std::optional<uint32_t> time_budget_s;
  /// Present only on the report of a run interrupted (SIGINT, SIGTERM)
  /// before every selected case ran: the ids of those that did not, in
  /// catalog order. Such a report is incomplete (report.json `"complete":
  /// false`): never certified, and `verify` rejects it.
  std::optional<std::vector<std::string>> not_run;
  /// How the backend's on-disk cache of driver-compiled code served the run
  /// (the caller's backend; a retry's fresh one is not counted), when it
  /// keeps one: hits mean warm compile times.
  std::optional<DriverCacheUse> driver_cache;
};

/// Judges levels (fail closed) and the overall verdict from the case results:
/// fills report.levels, report.certified and report.reason. The run and
/// `vyre-certify verify` both judge with this one function.
void judge(Report& report);

/// The `kSlowestCasesListed` cases with the most backend time, slowest
/// first (ties in case order).
std::vector<const CaseResult*> slowest_cases(const Report& report);

/// True when a case's status blocks certification: anything but pass. (A
/// case not supported leaves its level uncertified, so it counts.)
bool is_failing(Verdict v);

}  // namespace vyre::certify
