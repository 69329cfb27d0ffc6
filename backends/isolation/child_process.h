// A forked child process joined to its parent by two pipes, and the parent's
// duty to reap it. The child runs a function and never returns into the
// caller's code; the parent never blocks on it without a time limit.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "spec/support/result.h"

namespace vyre::isolation {

/// In the child: the descriptor requests arrive on.
inline constexpr int kChildRequestFd = 3;
/// In the child: the descriptor replies go out on.
inline constexpr int kChildReplyFd = 4;

/// How a process ended, from its wait status: "signal 11: SIGSEGV" or
/// "exit status 3".
std::string describe_wait_status(int wait_status);

/// A running child and the parent's ends of its pipes (non-blocking).
class ChildProcess {
 public:
  /// Forks a child that runs `body` and _exits with its result. In the child,
  /// descriptors 0 and 2 are inherited, 1 goes to stderr (so nothing a backend
  /// prints mixes into the host's output), 3 and 4 are the pipes, and every
  /// other descriptor is closed; the child dies with the calling thread.
  static Result<std::unique_ptr<ChildProcess>> spawn(const std::function<int()>& body);

  /// Closes the pipes, then reaps the child as reap() does.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// The parent's writing end (the child's kChildRequestFd).
  int requests() const { return requests_; }
  /// The parent's reading end (the child's kChildReplyFd).
  int replies() const { return replies_; }
  /// The child's process id.
  pid_t pid() const { return pid_; }

  /// Closes the parent's ends so the child sees end of input, gives it
  /// `grace` to exit, kills it (SIGKILL) if it has not, and reaps it.
  /// Returns how it ended. Idempotent.
  std::string reap(std::chrono::milliseconds grace);
  /// Kills the child now (SIGKILL) and reaps it; returns how it ended.
  std::string kill_now() { return reap(std::chrono::milliseconds(0)); }
  /// Closes the parent's writing end only, so the child sees end of input
  /// while its replies can still be read.
  void close_requests();

 private:
  ChildProcess(pid_t pid, int requests, int replies);
  void close_pipes();

  pid_t pid_;
  int requests_;
  int replies_;
  std::string ended_;
};

}  // namespace vyre::isolation
