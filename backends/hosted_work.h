// Hosted work: host code that drives a backend through many calls (a
// host-driven case: the dataflow engine dispatches once per BFS level), run
// where the backend's device lives. In process that is a plain call; an
// isolated backend (backends/isolation/isolate.h) runs the whole work inside
// its child process, so an engine step costs a dispatch there and no message
// round trip, while a crash or hang still fails only the work in flight.
//
// The child is forked, not exec'd: it holds a copy of every HostedWork that
// existed when it was forked. Each HostedWork is registered under an id in a
// process-wide table (never reused); the child looks the id up in its copy.
// Work made after a child was forked is unknown to it: the isolated backend
// then starts a fresh child, once, which knows it. Make HostedWork before the
// runs that use it (the certifier builds its catalogue, then runs it).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace vyre {

/// What one run of hosted work observed.
struct HostedRun {
  Status status = Status::Error;
  std::string message;
  /// The run's outputs (for a host-driven case: its canonical findings).
  BufferSet outputs;
};

/// Hosted work prepared on one backend (its programs compiled).
struct HostedPrepared {
  /// Not Ok: the work cannot run there (e.g. a program the backend rejects).
  Status status = Status::Error;
  std::string message;
  /// One full run; called once per run, possibly from several threads at once.
  std::function<HostedRun()> run;
};

/// How many runs of hosted work to make, and how.
struct HostedRunsOptions {
  /// Runs to make (each a full, independent run).
  uint32_t runs = 1;
  /// Runs made side by side on that many threads (the backend's
  /// concurrent_dispatches), each thread taking the next run in order.
  uint32_t threads = 1;
  /// No run starts once this long has passed since the call began (0: no
  /// limit); prepare() counts.
  std::chrono::milliseconds budget{0};
};

/// What runs of hosted work gave.
struct HostedRunsOutcome {
  /// Ok unless the runs could not be made at all: the backend's process
  /// crashed (Crashed) or stopped answering (Timeout) during them, or it
  /// does not hold the work. The message then says during what.
  Status status = Status::Ok;
  std::string message;
  /// prepare()'s status and message; when not Ok, no run was made.
  Status prepare_status = Status::Error;
  std::string prepare_message;
  /// One entry per run asked for, in run order: nullopt for a run not
  /// started (the budget ran out, or an earlier run failed and stopped the
  /// taking). Runs are taken in order, but on several threads a later run
  /// may start while an earlier one was not.
  std::vector<std::optional<HostedRun>> runs;
  /// Wall time of prepare() and of the runs, in microseconds.
  uint64_t prepare_us = 0;
  uint64_t runs_us = 0;
  /// Time the device measured executing the work's dispatches (their
  /// DispatchTiming and BatchTiming device_ms summed), in milliseconds;
  /// nullopt when it made none or any of them was not measured.
  std::optional<double> device_ms;
};

/// Registered host code: prepares itself on a backend. Neither copied nor
/// moved (its address is registered); share it through a shared_ptr.
class HostedWork {
 public:
  /// Prepares the work on a backend; may be called in a forked child.
  using Prepare = std::function<HostedPrepared(Backend&)>;

  /// Registers the work under a new id; `name` names it in messages (a case id).
  HostedWork(std::string name, Prepare prepare);
  ~HostedWork();
  HostedWork(const HostedWork&) = delete;
  HostedWork& operator=(const HostedWork&) = delete;

  /// Its id, unique in this process and above every id registered before it.
  uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  /// Prepares it on `backend`.
  HostedPrepared prepare(Backend& backend) const { return prepare_(backend); }
  /// Prepares it on `backend` and makes the runs, in this process: what
  /// Backend::run_hosted does unless a backend runs it elsewhere.
  HostedRunsOutcome run_here(Backend& backend, const HostedRunsOptions& options) const;

 private:
  uint64_t id_;
  std::string name_;
  Prepare prepare_;
};

/// The work registered under `id` in this process (in a forked child: as it
/// was at the fork), or null.
const HostedWork* find_hosted_work(uint64_t id);

/// The highest id registered so far (0: none); a child forked after this
/// call holds every work up to it.
uint64_t last_hosted_work_id();

}  // namespace vyre
