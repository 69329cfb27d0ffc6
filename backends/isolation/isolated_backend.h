// The parent side of isolation: a Backend whose every call is a message
// exchange with a child process (backends/isolation/isolate.h has the rules).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "backends/isolation/child_process.h"
#include "backends/isolation/frame_io.h"
#include "backends/isolation/isolate.h"
#include "backends/isolation/messages.h"

namespace vyre::isolation {

/// Program ids the parent let go of, sent to the child before the next call.
class ReleaseQueue {
 public:
  void push(uint64_t id);
  std::vector<uint64_t> take();

 private:
  std::mutex mutex_;
  std::vector<uint64_t> ids_;
};

/// The parent's handle of a program compiled in the child: its id and the
/// text to compile it again in a fresh child.
class IsolatedProgram final : public CompiledProgram {
 public:
  IsolatedProgram(uint64_t id, std::string text, std::shared_ptr<ReleaseQueue> releases);
  ~IsolatedProgram() override;
  IsolatedProgram(const IsolatedProgram&) = delete;
  IsolatedProgram& operator=(const IsolatedProgram&) = delete;

  uint64_t id() const { return id_; }
  const std::string& text() const { return text_; }
  /// True when `releases` is the queue of the backend that compiled it.
  bool compiled_by(const ReleaseQueue* releases) const { return releases_.get() == releases; }

 private:
  uint64_t id_;
  std::string text_;
  std::shared_ptr<ReleaseQueue> releases_;
};

/// Why a call could not be completed, as the call's status and message.
struct CallFailure {
  Status status;
  std::string message;
};

/// A Backend running its real backend in a child process.
class IsolatedBackend final : public Backend {
 public:
  IsolatedBackend(BackendFactory factory, IsolationOptions options);
  ~IsolatedBackend() override;

  /// Starts a child unless one runs; why it could not otherwise.
  std::optional<CallFailure> start();

  std::string name() const override;
  Capabilities probe() override;
  CompileOutcome compile(const Program& program) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;

 private:
  struct Child {
    std::unique_ptr<ChildProcess> process;
    std::set<uint64_t> compiled;  ///< Program ids this child holds.
  };

  std::optional<CallFailure> ensure_child();
  std::optional<CallFailure> try_start();
  CallFailure lose_child(const ChannelFailure& failure, const std::string& during,
                         std::chrono::milliseconds timeout);
  /// Sends `request` and reads the reply into reply_.
  std::optional<CallFailure> exchange(const Frame& request, const std::string& during);
  std::variant<CompileReplyMessage, CallFailure> compile_in_child(uint64_t id,
                                                                  const std::string& text,
                                                                  const std::string& during);
  void send_releases();

  BackendFactory factory_;
  IsolationOptions options_;
  mutable std::mutex mutex_;
  std::optional<Child> child_;
  bool started_once_ = false;
  std::string name_;
  Capabilities capabilities_;
  std::optional<CallFailure> start_failure_;
  uint32_t failed_starts_ = 0;  ///< In a row; reset by a successful start.
  uint64_t next_id_ = 1;
  std::shared_ptr<ReleaseQueue> releases_ = std::make_shared<ReleaseQueue>();
  Frame reply_;  ///< The last reply; its memory is reused by the next.
};

}  // namespace vyre::isolation
