// Process isolation: a Backend that runs the real backend in a forked child
// and talks to it over pipes, so a backend that crashes, hangs or writes
// garbage fails one call instead of taking the certification run with it.
//
//   crash (signal, exit)  -> Status::Error "backend process crashed (signal 11:
//                            SIGSEGV) during dispatch of program #3 on grid 4x1x1"
//   no answer in time     -> the child is killed (SIGKILL), Status::Timeout
//   malformed reply       -> the child is killed, Status::BadOutput
// After any of these the next call starts a fresh child and compiles again
// the programs it needs. Children are always reaped; the parent ignores
// SIGPIPE (only if it was at its default) so a dead child's pipe cannot kill it.
//
// A backend that fails to start max_start_attempts times in a row is given
// up on: later calls fail at once with the last start failure, so a backend
// that hangs at start-up costs a bounded time, not a timeout per call.
//
// The child is forked, not exec'd: make the isolated backend before starting
// threads that hold locks the factory needs (glibc keeps malloc and stdio
// usable across fork). A child dies with the thread that forked it
// (PR_SET_PDEATHSIG, so a host that dies leaves no orphan behind): call an
// isolated backend from a thread that outlives it, such as the main thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "backends/backend.h"
#include "backends/isolation/backend_factory.h"
#include "spec/support/result.h"

namespace vyre {

/// Time limits and sizes of an isolated backend.
struct IsolationOptions {
  /// Longest wait for the child to create its backend and probe it.
  std::chrono::milliseconds startup_timeout{60'000};
  /// Longest wait for the reply to one compile or dispatch.
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
/// Status::Error (retrying the start each call).
std::unique_ptr<Backend> isolate(BackendFactory factory, IsolationOptions options = {});

/// Like isolate(), but a child that fails to start (the factory's Error, a
/// crash or a timeout during start-up) is an Error here.
Result<std::unique_ptr<Backend>> start_isolated(BackendFactory factory,
                                                IsolationOptions options = {});

}  // namespace vyre
