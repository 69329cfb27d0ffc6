// The backend interface every backend implements, in this repo or outside it
// (through the C ABI in backends/plugin_abi.h). Lifecycle:
//   probe()    what the device can do; no program involved.
//   compile()  pure translation of a validated Program; runs nothing on a device.
//   dispatch() runs a compiled program on one input set and grid; a backend may
//              cache device objects (pipelines) per compiled program.
//   dispatch_levels() runs one program level after level on a state until a
//              level changes nothing (level_loop.h: the dataflow engine).
//   dispatch_runs() runs the same dispatch many times, each run an independent
//              execution on freshly initialised outputs, and reports run 0's
//              bytes and which runs differ from it (the determinism check).
// A backend reports a Status; the certifier, not the backend, turns statuses
// and bytes into verdicts.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec/ir/encoding.h"
#include "spec/ir/host_abi.h"
#include "spec/ir/program.h"

namespace vyre {

class HostedWork;
struct LevelLoop;
struct LevelLoopOutcome;
struct HostedRunsOptions;
struct HostedRunsOutcome;

/// Closed set of outcomes of compile and dispatch.
enum class Status : uint8_t {
  Ok,
  NotSupported,  ///< The program needs more than the device offers.
  CompileError,  ///< Lowering or the driver rejected the program.
  DeviceLost,    ///< The device was lost; the backend recreates it.
  Timeout,       ///< The dispatch did not finish in time.
  BadOutput,     ///< The backend returned malformed output (short, missing buffers).
  Error,         ///< Any other failure, with a message.
  /// The backend's process died during the call (a signal, an exit): only
  /// process isolation reports it (backends/isolation/isolate.h).
  Crashed,
};

/// The last Status, for code that checks a status code read from outside.
inline constexpr Status kLastStatus = Status::Crashed;

/// "ok", "not supported", ...
std::string_view name_of(Status s);

/// What a device offers, as probed.
struct Capabilities {
  /// Empty when the backend can run programs; otherwise why it cannot (no
  /// Vulkan loader, no device, ...). The certifier exits 2 on it.
  std::string unavailable;
  std::string device_name;
  std::string driver;  ///< Driver name and version.
  std::string api;     ///< e.g. "Vulkan 1.3.230".
  uint32_t max_workgroup_invocations = 0;
  std::array<uint32_t, 3> max_workgroup_size = {0, 0, 0};
  std::array<uint32_t, 3> max_workgroup_count = {0, 0, 0};
  /// Most invocations (workgroup size x grid, all axes) one dispatch may run; 0
  /// if the backend sets no such limit.
  uint64_t max_dispatch_invocations = 0;
  uint64_t max_storage_buffer_bytes = 0;
  uint64_t max_uniform_buffer_bytes = 0;
  uint64_t max_workgroup_memory_bytes = 0;
  /// Preferred workgroup size in invocations (subgraph width, 64 if unknown).
  uint32_t preferred_workgroup_size = 64;
};

/// A backend's compiled form of one program; opaque to callers.
class CompiledProgram {
 public:
  virtual ~CompiledProgram() = default;
};

/// Result of compile().
struct CompileOutcome {
  Status status = Status::Error;
  std::string message;
  std::shared_ptr<const CompiledProgram> program;
};

/// Wall times of one dispatch's phases, in milliseconds.
struct DispatchTiming {
  double setup_ms = 0;     ///< Pipeline and descriptor creation (0 when cached).
  double upload_ms = 0;    ///< Host to device copies.
  double execute_ms = 0;   ///< Submit to fence signalled.
  double readback_ms = 0;  ///< Device to host copies.
  /// Time the device itself measured executing the call's submissions
  /// (Vulkan timestamp queries, OpenCL event profiling), in milliseconds;
  /// nullopt when the backend or device measures none.
  std::optional<double> device_ms;
};

/// Result of dispatch().
struct DispatchOutcome {
  Status status = Status::Error;
  std::string message;
  /// Bytes of every ReadWrite buffer, when status is Ok.
  BufferSet outputs;
  DispatchTiming timing;
};

/// Most differing runs whose bytes a BatchOutcome carries by default.
inline constexpr uint32_t kMaxReportedDifferingRuns = 4;

/// How dispatch_runs spreads its runs.
struct BatchOptions {
  /// Independent runs of the dispatch (at least 1).
  uint32_t runs = 1;
  /// Separate submissions (each waited for before the next starts) the runs
  /// are spread over, so that effects from one submission to the next are
  /// still exercised; clamped to [1, runs]. A backend may use more (to bound
  /// memory), never fewer.
  uint32_t submissions = 1;
  /// Most runs differing from run 0 whose bytes come back in `differing`
  /// (the rest are only counted). A few show a byte-compared case's
  /// nondeterminism; a case judged canonically (graph.bfs findings, whose
  /// raw order may differ between correct runs) needs every one.
  uint32_t reported_differing = kMaxReportedDifferingRuns;
  /// Read_write buffers whose bytes the caller does not judge (graph.bfs's
  /// visited_set and bfs_queue: working memory whose contents any correct
  /// run may leave differently). A run that differs from run 0 only in
  /// these is not a differing run (neither counted nor returned); a
  /// differing run comes back without them, so they are never read back
  /// for it. Run 0's first_outputs keep every buffer (reports and repros
  /// show them). A name that is no read_write buffer of the program changes
  /// nothing.
  std::vector<std::string> scratch = {};
  /// Called as each submission has been waited for (never sent over the
  /// wire): the isolation's child reports it to the parent, which then
  /// bounds each submission of a long batch, not the whole batch by the
  /// submissions asked for (a backend may use more, to bound memory: the
  /// 128 MiB case's 100 runs on lavapipe passed that bound under load).
  std::function<void()> on_submission = {};
};

/// Calls options.on_submission, where set.
inline void report_submission(const BatchOptions& options) {
  if (options.on_submission) options.on_submission();
}

/// A run whose outputs differ from run 0's.
struct DifferingRun {
  uint32_t run = 0;
  BufferSet outputs;  ///< Every read_write buffer of that run but BatchOptions::scratch.
};

/// Wall times of a batch.
struct BatchTiming {
  double total_ms = 0;  ///< Whole call: setup, uploads, runs, comparison, readback.
  double setup_ms = 0;  ///< Pipeline creation (0 when cached).
  /// (total_ms - setup_ms) / dispatches, in microseconds: the amortised cost
  /// of one run, device work included (for a trivial program, its overhead).
  double per_dispatch_us = 0;
  /// Time the device itself measured executing the batch's submissions, in
  /// milliseconds (part of total_ms); nullopt unless every submission was measured.
  std::optional<double> device_ms;
};

/// Result of dispatch_runs. The runner judges run 0's bytes against the
/// reference and treats every run in `differing` as a deviation; runs not
/// listed produced exactly run 0's bytes (scratch buffers aside).
struct BatchOutcome {
  /// Ok when every run finished; otherwise the first failing run's status.
  Status status = Status::Error;
  std::string message;
  /// The run whose status is reported (0 when Ok).
  uint32_t failed_run = 0;
  /// Run 0's read_write buffers, when status is Ok.
  BufferSet first_outputs;
  /// The first BatchOptions::reported_differing runs whose outputs differ
  /// from run 0's outside BatchOptions::scratch, by increasing run index,
  /// with their bytes (scratch left out).
  std::vector<DifferingRun> differing;
  /// How many runs differ from run 0 in all (may exceed differing.size()).
  uint32_t differing_runs = 0;
  /// Runs actually executed (all of them when Ok; fewer after a failure).
  uint32_t dispatches = 0;
  /// Submissions actually made.
  uint32_t submissions = 0;
  BatchTiming timing;
};

/// How a backend's on-disk cache of driver-compiled code served a run
/// (BackendOptions::cache_dir), for the report: a reader sees whether the
/// run's compile times were warm.
struct DriverCacheUse {
  std::string dir;        ///< The cache folder.
  std::string what;       ///< What is cached, e.g. "Vulkan pipeline cache".
  uint64_t hits = 0;      ///< Items served from the cache.
  uint64_t misses = 0;    ///< Items the driver compiled.
  uint64_t rejected = 0;  ///< Entries refused as truncated, corrupt or foreign.
  uint64_t stored = 0;    ///< Entries written.
};

/// A compute backend.
class Backend {
 public:
  virtual ~Backend() = default;
  /// Registry name, e.g. "vulkan".
  virtual std::string name() const = 0;
  /// Device capabilities; the same every call.
  virtual Capabilities probe() = 0;
  /// Translates a validated program; runs nothing on a device (it may read
  /// the device's limits to refuse a program early).
  virtual CompileOutcome compile(const Program& program) = 0;
  /// The encodings besides Encoding::AsEmitted that compile_encoded()
  /// accepts (spirv-opt recipes, driver options); none by default.
  virtual std::vector<Encoding> encodings() const { return {}; }
  /// compile() in `encoding`: AsEmitted is compile() itself; an encoding
  /// encodings() lists is that lowering of the same program; any other is
  /// NotSupported naming it, never another lowering in its place.
  virtual CompileOutcome compile_encoded(const Program& program, Encoding encoding);
  /// Runs a program from compile() of this backend.
  virtual DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                   const Grid& grid) = 0;
  /// Runs `program` options.runs times on `inputs` (every run starts from
  /// these bytes) and compares each run's outputs with run 0's. The default
  /// calls dispatch() once per run, so every backend supports it; backends
  /// override it to amortise submission and readback.
  virtual BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                                     const Grid& grid, const BatchOptions& options);
  /// True when compile() and prepare() may run on several threads at once,
  /// alongside dispatch() and dispatch_runs() on another: the certifier then
  /// compiles the cases ahead of the one running, on every host core. False
  /// by default (a plugin's calls go through one child process).
  virtual bool compiles_concurrently() const { return false; }
  /// Builds ahead whatever device objects the first dispatch of `program`
  /// would build (a pipeline, a kernel), so that the driver's compiler runs
  /// off the critical path. Best effort: a failure here is left for the
  /// dispatch to report. The default does nothing.
  virtual void prepare(const CompiledProgram& program) { (void)program; }
  /// How many dispatch() calls may usefully run at once, each on its own
  /// thread (alongside compile() and prepare() on others): the certifier
  /// runs that many of a host-driven case's runs side by side, so that one
  /// run's submissions overlap another's host work and round trips. 1 by
  /// default: one call at a time.
  virtual uint32_t concurrent_dispatches() const { return 1; }
  /// How many processes of this backend, each with a driver of its own, are
  /// worth running side by side: more than 1 where the driver runs one call
  /// at a time per process whatever the thread or queue (NVIDIA's OpenCL),
  /// so that a second process's calls overlap the first's. The certifier
  /// spreads its cases over that many isolated children (open_backend).
  /// 1 by default.
  virtual uint32_t useful_processes() const { return 1; }
  /// How the backend's on-disk driver cache served the run so far; nullopt
  /// when it keeps none (the default, or caching disabled).
  virtual std::optional<DriverCacheUse> driver_cache() const { return std::nullopt; }
  /// Called in a backend's child process once its last call has returned,
  /// just before the process ends: true when the backend has written all
  /// that must outlive it (its driver cache) and may be left to the OS
  /// instead of destroyed. The OS takes a device back faster than a driver
  /// tears one down (NVIDIA's Vulkan: 0.85-1.26 s a close on the H200, which
  /// every certification waited for). False by default: the backend is
  /// destroyed as usual (a plugin's destroy call, which may save its own
  /// state, always runs).
  virtual bool saved_for_process_exit() { return false; }
  /// Prepares `work` on this backend and makes its runs
  /// (backends/hosted_work.h), where the device lives: in this process by
  /// default (HostedWork::run_here); an isolated backend makes them in its
  /// child process, so each of the work's calls costs no round trip.
  virtual HostedRunsOutcome run_hosted(const HostedWork& work, const HostedRunsOptions& options);
  /// Runs `program` level after level on `state` (backends/level_loop.h)
  /// until a level leaves `loop.changed` at 0 or loop.max_levels ran. The
  /// default dispatches each level (dispatch()) with the state on the host
  /// between levels; a backend may override it to keep the state on its
  /// device and wait once for several levels.
  virtual LevelLoopOutcome dispatch_levels(const CompiledProgram& program, const BufferSet& state,
                                           const Grid& grid, const LevelLoop& loop);
};

/// Records run `run`'s outputs in `outcome` (the first run's whole, or a
/// differing one without options.scratch) while a batch is assembled; shared
/// by dispatch_runs implementations. A run equal to run 0 outside
/// options.scratch is not recorded; at most options.reported_differing
/// differing runs keep their bytes, the rest are counted.
void record_run_outputs(BatchOutcome& outcome, uint32_t run, BufferSet outputs,
                        const BatchOptions& options);

/// Whether `name` is one of options.scratch.
bool is_scratch(const BatchOptions& options, std::string_view name);

/// Whether a run's `outputs` equal run 0's `first` in every buffer outside
/// options.scratch (a scratch buffer may be missing from either).
bool same_judged_outputs(const BufferSet& first, const BufferSet& outputs,
                         const BatchOptions& options);

/// Fills timing.total_ms and per_dispatch_us from the batch's wall time.
void finish_batch_timing(BatchOutcome& outcome, double total_ms);

/// Adds one measurement of device time to a running total that stays
/// measured only while every part was: nullopt in either makes nullopt.
/// `first` says whether `total` holds nothing yet (it then takes `part`).
std::optional<double> add_device_ms(std::optional<double> total, std::optional<double> part,
                                    bool first);

}  // namespace vyre
