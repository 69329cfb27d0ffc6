// Process isolation: a Backend that runs the real backend in a forked child
// and talks to it over pipes, so a backend that crashes, hangs or writes
// garbage fails the calls in flight instead of taking the certification run
// with it. vyre-certify runs plugins and the built-in device backends
// (vulkan, opencl) this way.
//
//   crash (signal, exit)  -> Status::Crashed "backend process crashed (signal 11:
//                            SIGSEGV) during dispatch of program #3 on grid 4x1x1"
//   no answer in time     -> the child is killed (SIGKILL), Status::Timeout; a
//                            compile, the driver's build (prepare) and a
//                            dispatch are each named as such
//   malformed reply       -> the child is killed, Status::BadOutput
//   the backend reports Timeout or DeviceLost -> passed on, and the child is
//                            replaced (a driver that cannot cancel a kernel
//                            would poison every later call)
// After any of these the next call starts a fresh child and compiles (and
// prepares) again the programs it needs. Children are always reaped; the
// parent ignores SIGPIPE (only if it was at its default) so a dead child's
// pipe cannot kill it.
//
// Everything a Backend offers is forwarded: dispatch_runs as one message (the
// batch runs in the child; run 0's outputs and the differing runs come back),
// run_hosted as one message (below), prepare(), the concurrency queries, and
// driver_cache() (asked of the running child, plus what was last obtained
// from each child it replaced: IsolatedBackend::driver_cache). Calls from several
// threads are in flight at once in one child, which serves each on a thread of its own, so the real
// backend's concurrency is kept. When the child dies, every call in flight fails (Crashed, or
// DeviceLost for those killed with another call's timeout): the certifier retries such a case once
// on a fresh backend.
//
// Hosted work (backends/hosted_work.h: a host-driven case, the dataflow
// engine's dispatch per BFS level) runs whole in the child, Backend::run_hosted
// as one message: the child looks the work up by id in its copy of the
// parent's registry (it was forked after the work was made; a child forked
// before is replaced by a fresh one, once, while the calls in flight on the
// old one finish there), prepares it on its own backend, makes every run, and
// sends back each run's status and outputs (a run equal to an earlier one as
// that run's index). So an engine step costs a dispatch in the child and no
// round trip: on lavapipe (this 2-core machine, under other load) the 51
// dataflow cases took 43 CPU-s isolated against 50 in process, where each
// step's round trip had cost 90 CPU-s. While the work runs the child reports
// progress (ProgressMessage) as backend calls begin, at most every
// kProgressInterval; the parent bounds the time from one report to the next
// by what one dispatch may take (two call timeouts) plus that interval, so a
// call that hangs inside the work is killed as one that hangs alone would be
// (Status::Timeout naming the work and its last call begun), however long
// the whole work runs. A crash during the work fails that work (Crashed) and
// the next call starts a fresh child; a backend reporting Timeout or
// DeviceLost in any run replaces the child too. A batch of runs
// (dispatch_runs) is bounded the same way past the submissions it asked
// for: the child reports each submission the backend waited for
// (BatchOptions::on_submission), since a backend may use more submissions
// than asked for.
//
// A driver that runs one call at a time per process (useful_processes() > 1)
// can be spread over several children, each an isolated backend of its own
// (start_isolated_spread, spread_backend.h); a crash or hang in one replaces
// that child only.
//
// A backend that fails to start max_start_attempts times in a row is given
// up on: later calls fail at once with the last start failure, so a backend
// that hangs at start-up costs a bounded time, not a timeout per call.
//
// The child is forked, not exec'd: make the isolated backend before starting
// threads that hold locks the factory needs (glibc keeps malloc and stdio
// usable across fork). Each child is forked by a thread of its own that
// lives until the child is reaped (the child dies with the thread that
// forked it: PR_SET_PDEATHSIG, so a host that dies leaves no orphan behind).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "backends/backend.h"
#include "backends/isolation/backend_factory.h"
#include "spec/support/result.h"

namespace vyre {

/// Time limits and sizes of an isolated backend.
struct IsolationOptions {
  /// Longest wait for the child to create its backend and probe it.
  std::chrono::milliseconds startup_timeout{60'000};
  /// Longest wait for the reply to one compile, prepare() or submission: a
  /// dispatch may take two, a batch of N submissions N + 1.
  std::chrono::milliseconds call_timeout{60'000};
  /// How long a child told to stop may take before it is killed.
  std::chrono::milliseconds shutdown_grace{2'000};
  /// Largest message accepted from the child (a reply with every output).
  uint64_t max_message_bytes = uint64_t{1} << 32;
  /// Failed starts in a row after which no new child is tried.
  uint32_t max_start_attempts = 3;
};

/// A Backend whose calls run `factory`'s backend in a child process. It
/// starts the child at once; if that fails, name() says so, probe() returns
/// Capabilities whose `unavailable` holds why, and compile/dispatch return
/// the start's failure (retrying the start each call).
std::unique_ptr<Backend> isolate(BackendFactory factory, IsolationOptions options = {});

/// Like isolate(), but a child that fails to start (the factory's Error, a
/// crash or a timeout during start-up) is an Error here.
Result<std::unique_ptr<Backend>> start_isolated(BackendFactory factory,
                                                IsolationOptions options = {});

/// Like start_isolated(), then, when the started backend's
/// useful_processes() asks for more than one (at most `max_processes`),
/// that many children in all, as one backend that spreads its calls over
/// them (backends/isolation/spread_backend.h). A further child that fails
/// to start is left out: the run goes on with the ones that started, each
/// still replaced when it crashes or hangs, and `shortfall` (when given)
/// says how many started of how many wanted and why the next did not; it is
/// left empty when all started.
Result<std::unique_ptr<Backend>> start_isolated_spread(BackendFactory factory,
                                                       IsolationOptions options,
                                                       uint32_t max_processes,
                                                       std::string* shortfall = nullptr);

}  // namespace vyre
