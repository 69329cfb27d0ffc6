// The parent side of isolation: a Backend whose every call is a message
// exchange with a child process (backends/isolation/isolate.h has the rules).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "backends/isolation/child_connection.h"
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

/// The parent's handle of a program compiled in the child: its id (unique in
/// this process, across isolated backends) and the text to compile it again
/// in a fresh child. Another isolated backend may run it too (compiling it
/// in its own child first): the certifier compiles cases ahead on the
/// backend it opened and runs them on the fresh one a retry opened. The
/// child of that other backend keeps the program until it ends.
class IsolatedProgram final : public CompiledProgram {
 public:
  IsolatedProgram(uint64_t id, std::string text, Encoding encoding,
                  std::shared_ptr<ReleaseQueue> releases);
  ~IsolatedProgram() override;
  IsolatedProgram(const IsolatedProgram&) = delete;
  IsolatedProgram& operator=(const IsolatedProgram&) = delete;

  uint64_t id() const { return id_; }
  const std::string& text() const { return text_; }
  Encoding encoding() const { return encoding_; }

 private:
  uint64_t id_;
  std::string text_;
  Encoding encoding_;
  std::shared_ptr<ReleaseQueue> releases_;
};

/// A Backend running its real backend in a child process. Calls may come
/// from several threads at once (as the real backend's compiles_concurrently
/// and concurrent_dispatches, forwarded from the child, allow): they share
/// one child, which serves each on a thread of its own.
class IsolatedBackend final : public Backend {
 public:
  IsolatedBackend(BackendFactory factory, IsolationOptions options);
  ~IsolatedBackend() override;

  /// Starts a child unless one runs; why it could not otherwise.
  std::optional<CallFailure> start();

  std::string name() const override;
  Capabilities probe() override;
  CompileOutcome compile(const Program& program) override;
  /// The encodings the child's backend listed in its hello (none before
  /// the first start; probe() starts the child).
  std::vector<Encoding> encodings() const override;
  CompileOutcome compile_encoded(const Program& program, Encoding encoding) override;
  DispatchOutcome dispatch(const CompiledProgram& program, const BufferSet& inputs,
                           const Grid& grid) override;
  BatchOutcome dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                             const Grid& grid, const BatchOptions& options) override;
  bool compiles_concurrently() const override;
  void prepare(const CompiledProgram& program) override;
  uint32_t concurrent_dispatches() const override;
  uint32_t useful_processes() const override;
  /// Runs the work in the child (its copy from the fork), so its calls cost
  /// no round trip; a child forked before the work was made is replaced by
  /// one that holds it. Its progress reports bound each backend call it
  /// makes (twice call_timeout, as a dispatch), not the whole work.
  HostedRunsOutcome run_hosted(const HostedWork& work, const HostedRunsOptions& options) override;
  /// The running child's backend's driver_cache(), asked with a call
  /// timeout. A child replaced after a crash, a timeout or a lost device
  /// took its counts with it (the certifier asks once, at the end), so they
  /// are the current process's. Starts no child: nullopt with none running,
  /// when the query fails, or when the backend keeps no cache.
  std::optional<DriverCacheUse> driver_cache() const override;

 private:
  using Connected = std::variant<std::shared_ptr<ChildConnection>, CallFailure>;

  /// The running child, or a new one; why none could be started otherwise.
  /// A child forked before HostedWork `holding` was made is replaced (it
  /// ends once the calls in flight on it let go).
  Connected connection(uint64_t holding = 0);
  std::optional<CallFailure> try_start();
  /// Tells the child which programs the parent let go of.
  void send_releases(ChildConnection& child);
  /// One request and its reply, decoded by `decode`; a reply that does not
  /// decode abandons the child (BadOutput).
  template <typename Reply, typename Decode>
  std::variant<Reply, CallFailure> exchange(ChildConnection& child, uint64_t call,
                                            const Frame& request, const std::string& during,
                                            std::chrono::milliseconds timeout, Decode decode,
                                            std::optional<QuietLimit> quiet = std::nullopt) const;
  std::variant<CompileReplyMessage, CallFailure> compile_in(ChildConnection& child, uint64_t id,
                                                            const std::string& text,
                                                            Encoding encoding,
                                                            const std::string& during);
  /// Compiles (if this child does not hold it) and prepares (if not done in
  /// this child) `program` before it runs there.
  std::optional<CallFailure> make_ready(ChildConnection& child, const IsolatedProgram& program);
  /// The child a run of `program` goes to, ready for it.
  std::variant<std::shared_ptr<ChildConnection>, CallFailure> child_for(
      const CompiledProgram& program, const IsolatedProgram*& isolated);
  /// After the real backend reported `status` (a hang, a lost device), its
  /// process is not trusted with the next call: it is replaced.
  void retire_after(ChildConnection& child, Status status, const std::string& during);

  BackendFactory factory_;
  IsolationOptions options_;
  mutable std::mutex mutex_;
  std::shared_ptr<ChildConnection> child_;
  bool started_once_ = false;
  std::string name_;
  Capabilities capabilities_;
  bool compiles_concurrently_ = false;
  uint32_t concurrent_dispatches_ = 1;
  uint32_t useful_processes_ = 1;
  std::vector<Encoding> encodings_;
  std::optional<CallFailure> start_failure_;
  uint32_t failed_starts_ = 0;  ///< In a row; reset by a successful start.
  std::shared_ptr<ReleaseQueue> releases_ = std::make_shared<ReleaseQueue>();
};

}  // namespace vyre::isolation
