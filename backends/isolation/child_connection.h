// One child process of an isolated backend and the calls in flight on it.
// Several threads may call at once: each request carries a call id and a
// reader thread hands each reply to the call waiting for it. The reader
// thread forks the child and lives until it is reaped, so the child (which
// dies with the thread that forked it) never outlives its connection and
// never dies before it.
//
// When the child dies, every call in flight fails: Status::Crashed naming
// how it ended. When a call's time limit passes, the caller abandons the
// child (SIGKILL): it gets Status::Timeout, the other calls in flight
// DeviceLost. A connection that died stays dead; the backend starts another.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <variant>

#include "backends/isolation/child_process.h"
#include "backends/isolation/frame_io.h"
#include "backends/isolation/isolate.h"
#include "backends/isolation/messages.h"

namespace vyre::isolation {

/// How long a call may go without a Progress frame once one has come, and
/// what the frames count, for a timeout's message: "(after <counts> #3)".
struct QuietLimit {
  std::chrono::milliseconds limit;
  std::string_view counts;  ///< "it started backend call", "its submission".
};

/// Why a call could not be completed, as the call's status and message.
struct CallFailure {
  Status status;
  std::string message;
};

/// A running child process serving one backend, and its calls in flight.
class ChildConnection {
 public:
  /// Forks a child running `body`, which must send a Hello first, and waits
  /// for it within options.startup_timeout. The hello's `ok` may be false
  /// (the factory failed): the connection is then already closed.
  static std::variant<std::unique_ptr<ChildConnection>, CallFailure> start(
      std::function<int()> body, const IsolationOptions& options, HelloMessage& hello);

  /// Closes the requests pipe, gives the child the shutdown grace to exit,
  /// kills it if it has not, and waits for the reader thread.
  ~ChildConnection();
  ChildConnection(const ChildConnection&) = delete;
  ChildConnection& operator=(const ChildConnection&) = delete;

  /// A call id not used before on this connection.
  uint64_t next_call() { return next_call_++; }

  /// Sends `request`, whose payload carries call id `call`, and waits up to
  /// `timeout` for the reply with that id. `during` names the call in
  /// messages ("dispatch of program #3 on grid 4x1x1").
  /// With `quiet`, each Progress frame the child sends for this call moves
  /// the limit to quiet->limit past its arrival (never before `timeout`):
  /// hosted work may run long, but no backend call of it longer; a batch,
  /// no submission of it.
  std::variant<Frame, CallFailure> call(uint64_t call, const Frame& request,
                                        const std::string& during,
                                        std::chrono::milliseconds timeout,
                                        std::optional<QuietLimit> quiet = std::nullopt);

  /// Sends a request that gets no reply; a failure abandons the child.
  void send(const Frame& request);

  /// The highest HostedWork id registered when the child was forked: it
  /// holds every work up to that id (backends/hosted_work.h).
  uint64_t hosted_generation() const { return hosted_generation_; }

  /// False once the child died or was abandoned: calls then fail at once.
  bool alive() const;

  /// Kills the child; each call in flight fails with `status`, its message
  /// saying "backend process <why> during <its own call>".
  void abandon(Status status, const std::string& why);

  /// Whether the child holds program `id` (compiled there) and whether its
  /// device objects were built (prepared); recorded by the backend.
  bool holds(uint64_t id);
  bool prepared(uint64_t id);
  void mark_held(uint64_t id);
  void mark_prepared(uint64_t id);
  /// Forgets `id`; true when the child held it (it must be told to drop it).
  bool forget(uint64_t id);

 private:
  struct Pending {
    std::string during;
    std::optional<Frame> reply;
    std::optional<CallFailure> failure;
    /// When the child last reported progress of this call, and its count.
    std::optional<std::chrono::steady_clock::time_point> progress;
    uint64_t progress_calls = 0;
  };

  explicit ChildConnection(const IsolationOptions& options) : options_(options) {}
  void serve_replies(const std::function<int()>& body, HelloMessage& hello);
  std::optional<CallFailure> read_hello(HelloMessage& hello);
  void lose_child(const ChannelFailure& failure);
  /// Records a Progress frame; false when it is malformed.
  bool note_progress(const Frame& frame);
  void fail_all(const std::function<CallFailure(const Pending&)>& failure);
  void kill_child();

  IsolationOptions options_;
  std::thread reader_;
  std::unique_ptr<ChildProcess> process_;  ///< Set before `started_`; reaped by the reader.
  std::mutex write_mutex_;                 ///< Held while writing requests.
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool started_ = false;
  std::optional<CallFailure> start_failure_;
  bool dead_ = false;
  bool reaping_ = false;   ///< The reader is reaping: the pid may be gone.
  bool finished_ = false;  ///< The reader thread is done.
  std::map<uint64_t, Pending*> pending_;
  std::set<uint64_t> held_;
  std::set<uint64_t> prepared_;
  std::atomic<uint64_t> next_call_{1};
  uint64_t hosted_generation_ = 0;  ///< Set before `started_`.
};

}  // namespace vyre::isolation
