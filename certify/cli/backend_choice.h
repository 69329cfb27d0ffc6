// --backend, --device, --timeout-ms and --in-process: how `vyre-certify`
// (certify), `fuzz` and `run` pick and open a backend, so a repro replays on
// every backend the certification run accepts.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "backends/backend.h"
#include "backends/fault_injection/fault_injecting_backend.h"
#include "spec/support/result.h"

namespace vyre::cli {

/// The backend options as given on the command line.
struct BackendChoice {
  /// A built-in backend's name (reference, vulkan) or a plugin's path.
  std::string backend;
  std::optional<std::string> device;
  std::optional<std::chrono::milliseconds> timeout;
  /// --inject-faults: the faults every backend opened from this choice
  /// injects, counting calls on one counter (backends/fault_injection/).
  std::optional<FaultPlan> faults;
  std::shared_ptr<FaultCallCounter> fault_calls;
  /// --cache-dir: the folder of the on-disk driver cache (default:
  /// default_disk_cache_dir()); --no-cache keeps none.
  std::optional<std::string> cache_dir;
  bool no_cache = false;
  /// --in-process: run a built-in device backend (vulkan, opencl) in this
  /// process instead of a child, for a debugger; a driver crash then ends the run.
  bool in_process = false;
  /// Most child processes the backend is spread over when its driver runs
  /// one call at a time per process (Backend::useful_processes): a
  /// certification's cases then run in several (kCertifyMaxProcesses). 1 for
  /// `run` and `reduce`, and for `fuzz`, whose workers are processes already.
  uint32_t max_processes = 1;
};

/// A certification's bound on BackendChoice::max_processes; the backend's
/// useful_processes() chooses below it.
inline constexpr uint32_t kCertifyMaxProcesses = 4;

/// The switch that keeps a built-in backend in this process.
inline constexpr std::string_view kInProcessFlag = "--in-process";
/// The switch that keeps no on-disk driver cache.
inline constexpr std::string_view kNoCacheFlag = "--no-cache";

/// Takes --in-process or --no-cache: true when `flag` is one of them.
/// `error` gets a repeated switch.
bool take_backend_switch(const std::string& flag, BackendChoice& choice,
                         std::optional<std::string>& error);

/// Takes `flag value` when flag is --backend, --device, --timeout-ms,
/// --inject-faults or --cache-dir: true
/// when it was one of them. `error` gets a usage problem (a repeated option,
/// a bad number).
bool take_backend_option(const std::string& flag, const std::string& value, BackendChoice& choice,
                         std::optional<std::string>& error);

/// Takes args[i] when it is --backend, --device, --timeout-ms or --cache-dir
/// (with its value, moving i past it), --in-process or --no-cache, as `run`
/// and `reduce` accept them: true when it was one of them. `error` gets a usage problem (a
/// missing value, a repeated option, a bad number).
bool take_backend_arg(std::span<const std::string> args, size_t& i, BackendChoice& choice,
                      std::optional<std::string>& error);

/// Usage problems of a complete choice: no backend, --cache-dir with
/// --no-cache, --device where the backend cannot use it, or a crash fault for
/// a backend in this process.
std::optional<std::string> check_backend_choice(const BackendChoice& choice);

/// The built-in backends' names from the registry, comma-separated
/// ("reference, vulkan, opencl"), leaving out `except` when given: usage
/// texts list them from the one table.
std::string built_in_backend_list(std::string_view except = {});

/// True when --backend names a plugin file rather than a built-in backend.
bool names_plugin(const std::string& backend);

/// True when open_backend runs the backend in a child process: a plugin, or
/// a built-in device backend (vulkan, opencl) without --in-process.
bool runs_in_child_process(const BackendChoice& choice);

/// Opens the backend: a plugin, and a built-in one that drives a device
/// (vulkan, opencl) unless choice.in_process, in a child process
/// (backends/isolation/isolate.h), so that a driver that crashes or hangs
/// fails one call (in up to choice.max_processes children, as the backend's
/// useful_processes() asks); `reference` in this process. --inject-faults' faults are
/// injected where the backend runs (inside the child). An Error when it
/// cannot be loaded or (in a child) started; the backend's probe() may still
/// say it is unavailable.
Result<std::unique_ptr<Backend>> open_backend(const BackendChoice& choice);

/// A backend opened and probed, and the probe's answer: a run's one probe.
struct UsableBackend {
  std::unique_ptr<Backend> backend;
  Capabilities device;
};

/// Opens the backend (open_backend) and probes it once; an Error, which every
/// command reports with exit 2, says why it cannot be loaded or started, or
/// "backend `NAME` is not usable: WHY" when its probe finds no usable device.
Result<UsableBackend> open_usable_backend(const BackendChoice& choice);

}  // namespace vyre::cli
