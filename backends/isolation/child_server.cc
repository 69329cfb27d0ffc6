#include "backends/isolation/child_server.h"

#include <unistd.h>

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

#include "backends/isolation/messages.h"
#include "backends/isolation/progress_backend.h"
#include "spec/text/text_format.h"

namespace vyre::isolation {
namespace {

constexpr int kExitBrokenRequest = 2;
constexpr int kExitCannotReply = 3;

// The child blocks on its parent without a deadline: the parent owns every
// time limit and kills the child when one passes.
constexpr Deadline kNoDeadline = std::nullopt;

// Answers requests, each on a thread of its own so that calls the parent has
// in flight at once run at once here too, as they would in one process; the
// backend's own concurrency contract (compiles_concurrently,
// concurrent_dispatches, forwarded in the hello) is the parent's to keep.
class Server {
 public:
  // Sends call `call`'s progress to the parent, at most once per
  // kProgressInterval (the parent allows for that much delay); callable
  // from several threads.
  class ProgressReporter {
   public:
    ProgressReporter(Server& server, uint64_t call) : server_(server), call_(call) {}
    void operator()(uint64_t count) {
      const auto now = std::chrono::steady_clock::now();
      {
        std::lock_guard lock(mutex_);
        if (reported_ && now - *reported_ < kProgressInterval) return;
        reported_ = now;
      }
      server_.send(encode(ProgressMessage{call_, count}));
    }

   private:
    Server& server_;
    const uint64_t call_;
    std::mutex mutex_;
    std::optional<std::chrono::steady_clock::time_point> reported_;
  };

  Server(Backend& backend, int replies_fd) : backend_(backend), replies_fd_(replies_fd) {}

  // Waits for the calls still running, so the backend outlives them.
  ~Server() {
    std::unique_lock lock(running_mutex_);
    idle_.wait(lock, [this] { return running_ == 0; });
  }

  // Takes one request; the exit status when the child must stop.
  std::optional<int> handle(Frame request) {
    switch (static_cast<MessageKind>(request.kind)) {
      case MessageKind::Compile:
        if (auto m = decode_compile(request))
          return run([this, m = std::move(*m)] { return encode(compile(m)); });
        break;
      case MessageKind::Prepare:
        if (auto m = decode_prepare(request))
          return run([this, m = *m] {
            if (auto program = find(m.id)) backend_.prepare(*program);
            return encode(PrepareReplyMessage{m.call});
          });
        break;
      case MessageKind::Dispatch:
        if (auto m = decode_dispatch(request))
          return run([this, m = std::move(*m)] { return encode(dispatch(m)); });
        break;
      case MessageKind::DispatchRuns:
        if (auto m = decode_dispatch_runs(request))
          return run([this, m = std::move(*m)] { return encode(dispatch_runs(m)); });
        break;
      case MessageKind::HostedRuns:
        if (auto m = decode_hosted_runs(request))
          return run([this, m = *m] { return encode(hosted_runs(m)); });
        break;
      case MessageKind::DriverCache:
        if (auto m = decode_driver_cache(request))
          return run([this, m = *m] {
            return encode(DriverCacheReplyMessage{backend_.driver_cache(), m.call});
          });
        break;
      case MessageKind::Release:
        if (auto m = decode_release(request)) {
          std::lock_guard lock(programs_mutex_);
          for (uint64_t id : m->ids) programs_.erase(id);
          return std::nullopt;
        }
        break;
      default:
        break;
    }
    return kExitBrokenRequest;
  }

 private:
  // Runs `answer` on a new thread and sends its reply.
  template <typename Answer>
  std::optional<int> run(Answer answer) {
    {
      std::lock_guard lock(running_mutex_);
      ++running_;
    }
    std::thread([this, answer = std::move(answer)]() mutable {
      send(answer());
      std::lock_guard lock(running_mutex_);
      if (--running_ == 0) idle_.notify_all();
    }).detach();
    return std::nullopt;
  }

  // A reply or progress report that cannot be written means the parent is
  // gone or broken: the child ends at once.
  void send(const Frame& frame) {
    std::lock_guard lock(write_mutex_);
    if (write_frame(replies_fd_, frame, kNoDeadline)) ::_exit(kExitCannotReply);
  }

  std::shared_ptr<const CompiledProgram> find(uint64_t id) {
    std::lock_guard lock(programs_mutex_);
    auto program = programs_.find(id);
    return program == programs_.end() ? nullptr : program->second;
  }

  static std::string missing(uint64_t id) {
    return "isolation: the backend process holds no program #" + std::to_string(id);
  }

  CompileReplyMessage compile(const CompileMessage& request) {
    Result<Program> program = parse_program(request.text);
    if (!program) {
      return {Status::Error,
              "isolation: the backend process could not parse the program text: " +
                  program.error().message,
              request.call};
    }
    CompileOutcome outcome = backend_.compile_encoded(*program, request.encoding);
    if (outcome.status == Status::Ok) {
      if (outcome.program == nullptr) {
        return {Status::BadOutput, "compile returned ok without a compiled program", request.call};
      }
      std::lock_guard lock(programs_mutex_);
      programs_[request.id] = std::move(outcome.program);
    }
    return {outcome.status, std::move(outcome.message), request.call};
  }

  DispatchReplyMessage dispatch(const DispatchMessage& request) {
    auto program = find(request.id);
    if (!program) return {Status::Error, missing(request.id), {}, {}, request.call};
    DispatchOutcome outcome = backend_.dispatch(*program, request.inputs, request.grid);
    return {outcome.status, std::move(outcome.message), outcome.timing, std::move(outcome.outputs),
            request.call};
  }

  // Each submission waited for is reported, so that the parent bounds each
  // submission of a long batch instead of the whole batch.
  DispatchRunsReplyMessage dispatch_runs(const DispatchRunsMessage& request) {
    auto program = find(request.id);
    if (!program) {
      BatchOutcome missing_program;
      missing_program.message = missing(request.id);
      return {std::move(missing_program), request.call};
    }
    ProgressReporter report(*this, request.call);
    uint64_t submissions = 0;
    BatchOptions options = request.options;
    options.on_submission = [&] { report(++submissions); };
    return {backend_.dispatch_runs(*program, request.inputs, request.grid, options), request.call};
  }

  // The work runs here, on the backend, with no round trip per call; each
  // backend call it begins is reported (at most once per kProgressInterval)
  // so that the parent bounds every call, not only the whole work.
  HostedRunsReplyMessage hosted_runs(const HostedRunsMessage& request) {
    HostedRunsReplyMessage reply;
    reply.call = request.call;
    const HostedWork* work = find_hosted_work(request.work);
    if (work == nullptr) {
      reply.outcome.status = Status::Error;
      reply.outcome.message = "isolation: the backend process holds no hosted work #" +
                              std::to_string(request.work) + " (it was made after the fork)";
      return reply;
    }
    ProgressReporter report(*this, request.call);
    ProgressBackend watched(backend_, [&](uint64_t calls) { report(calls); });
    reply.outcome = work->run_here(watched, request.options);
    return reply;
  }

  Backend& backend_;
  int replies_fd_;
  std::mutex write_mutex_;
  std::mutex programs_mutex_;
  std::map<uint64_t, std::shared_ptr<const CompiledProgram>> programs_;
  std::mutex running_mutex_;
  std::condition_variable idle_;
  uint32_t running_ = 0;
};

}  // namespace

int serve_backend(const BackendFactory& factory, int requests_fd, int replies_fd,
                  uint64_t max_message_bytes) {
  Result<std::unique_ptr<Backend>> made = factory();
  if (!made) {
    HelloMessage hello;
    hello.error = made.error().message;
    return write_frame(replies_fd, encode(hello), kNoDeadline) ? kExitCannotReply : 0;
  }
  Backend& backend = **made;
  HelloMessage hello{true,
                     backend.name(),
                     "",
                     backend.probe(),
                     backend.compiles_concurrently(),
                     backend.concurrent_dispatches(),
                     backend.encodings(),
                     backend.useful_processes()};
  if (write_frame(replies_fd, encode(hello), kNoDeadline)) return kExitCannotReply;

  std::optional<int> exit_status;
  {
    Server server(backend, replies_fd);
    while (!exit_status) {
      auto request = read_frame(requests_fd, kNoDeadline, max_message_bytes);
      if (auto* failure = std::get_if<ChannelFailure>(&request)) {
        exit_status = failure->kind == ChannelFailure::Kind::Closed ? 0 : kExitBrokenRequest;
      } else {
        exit_status = server.handle(std::move(std::get<Frame>(request)));
      }
    }
  }  // Every call has returned.
  // The process ends next (ChildProcess::spawn): a backend that saved what
  // must outlive it is left to the OS, which ends the parent's wait sooner.
  if (backend.saved_for_process_exit()) (void)made.value().release();
  return *exit_status;
}

}  // namespace vyre::isolation
