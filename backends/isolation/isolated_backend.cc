#include "backends/isolation/isolated_backend.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "backends/isolation/child_server.h"
#include "spec/text/text_format.h"

namespace vyre::isolation {
namespace {

std::string program_label(uint64_t id) {
  return "program #" + std::to_string(id);
}

std::string grid_label(const Grid& grid) {
  const auto& w = grid.workgroups;
  return std::to_string(w[0]) + "x" + std::to_string(w[1]) + "x" + std::to_string(w[2]);
}

}  // namespace

void ReleaseQueue::push(uint64_t id) {
  std::lock_guard lock(mutex_);
  ids_.push_back(id);
}

std::vector<uint64_t> ReleaseQueue::take() {
  std::lock_guard lock(mutex_);
  return std::exchange(ids_, {});
}

IsolatedProgram::IsolatedProgram(uint64_t id, std::string text, Encoding encoding,
                                 std::shared_ptr<ReleaseQueue> releases)
    : id_(id), text_(std::move(text)), encoding_(encoding), releases_(std::move(releases)) {}

IsolatedProgram::~IsolatedProgram() {
  releases_->push(id_);
}

IsolatedBackend::IsolatedBackend(BackendFactory factory, IsolationOptions options)
    : factory_(std::move(factory)), options_(options) {}

IsolatedBackend::~IsolatedBackend() {
  std::lock_guard lock(mutex_);
  child_.reset();
}

std::optional<CallFailure> IsolatedBackend::start() {
  Connected child = connection();
  if (auto* failure = std::get_if<CallFailure>(&child)) return *failure;
  return std::nullopt;
}

IsolatedBackend::Connected IsolatedBackend::connection(uint64_t holding) {
  std::unique_lock lock(mutex_);
  const auto usable = [&] {
    return child_ && child_->alive() && child_->hosted_generation() >= holding;
  };
  if (usable()) return child_;
  if (child_) {
    // The old child is let go of before the next is forked, and not under
    // the lock: its end (reaping, its reader thread) may take a moment. A
    // thread still ending during the fork is harmless to the child's
    // allocator (make_forks_safe_for_the_allocator in fork_safety.h); a call
    // still holding the old child ends it later.
    std::shared_ptr<ChildConnection> retired = std::move(child_);
    lock.unlock();
    retired.reset();
    lock.lock();
    if (usable()) return child_;  // Another call started one meanwhile.
  }
  if (failed_starts_ >= options_.max_start_attempts && start_failure_) {
    return CallFailure{start_failure_->status,
                       "gave up starting the backend process after " +
                           std::to_string(failed_starts_) +
                           " failed starts; the last: " + start_failure_->message};
  }
  std::optional<CallFailure> failure = try_start();
  failed_starts_ = failure ? failed_starts_ + 1 : 0;
  if (failure) {
    start_failure_ = failure;
    return *failure;
  }
  return child_;
}

std::optional<CallFailure> IsolatedBackend::try_start() {
  HelloMessage hello;
  auto started = ChildConnection::start(
      [this] {
        return serve_backend(factory_, kChildRequestFd, kChildReplyFd, options_.max_message_bytes);
      },
      options_, hello);
  if (auto* failure = std::get_if<CallFailure>(&started)) return *failure;
  child_ = std::move(std::get<std::unique_ptr<ChildConnection>>(started));
  if (!started_once_) {
    started_once_ = true;
    name_ = hello.name;
    capabilities_ = hello.capabilities;
    compiles_concurrently_ = hello.compiles_concurrently;
    concurrent_dispatches_ = std::max<uint32_t>(hello.concurrent_dispatches, 1);
    useful_processes_ = std::max<uint32_t>(hello.useful_processes, 1);
    encodings_ = hello.encodings;
  }
  return std::nullopt;
}

void IsolatedBackend::send_releases(ChildConnection& child) {
  ReleaseMessage message;
  for (uint64_t id : releases_->take()) {
    if (child.forget(id)) message.ids.push_back(id);
  }
  if (!message.ids.empty()) child.send(encode(message));
}

template <typename Reply, typename Decode>
std::variant<Reply, CallFailure> IsolatedBackend::exchange(
    ChildConnection& child, uint64_t call, const Frame& request, const std::string& during,
    std::chrono::milliseconds timeout, Decode decode, std::optional<QuietLimit> quiet) const {
  auto reply = child.call(call, request, during, timeout, quiet);
  if (auto* failure = std::get_if<CallFailure>(&reply)) return *failure;
  Result<Reply> decoded = decode(std::get<Frame>(reply));
  if (!decoded) {
    child.abandon(Status::DeviceLost, "was killed after a malformed reply to another call");
    return CallFailure{Status::BadOutput, "backend process sent a malformed reply during " +
                                              during + " (" + decoded.error().message +
                                              "); killed it"};
  }
  return std::move(decoded.value());
}

std::variant<CompileReplyMessage, CallFailure> IsolatedBackend::compile_in(
    ChildConnection& child, uint64_t id, const std::string& text, Encoding encoding,
    const std::string& during) {
  const uint64_t call = child.next_call();
  auto reply =
      exchange<CompileReplyMessage>(child, call, encode(CompileMessage{id, text, call, encoding}),
                                    during, options_.call_timeout, decode_compile_reply);
  if (auto* compiled = std::get_if<CompileReplyMessage>(&reply);
      compiled != nullptr && compiled->status == Status::Ok) {
    child.mark_held(id);
  }
  return reply;
}

std::optional<CallFailure> IsolatedBackend::make_ready(ChildConnection& child,
                                                       const IsolatedProgram& program) {
  const uint64_t id = program.id();
  if (!child.holds(id)) {
    auto reply = compile_in(child, id, program.text(), program.encoding(),
                            "re-compile of " + program_label(id) + " for a new backend process");
    if (auto* failure = std::get_if<CallFailure>(&reply)) return *failure;
    if (auto& compiled = std::get<CompileReplyMessage>(reply); compiled.status != Status::Ok) {
      return CallFailure{Status::Error, program_label(id) +
                                            " compiled before, but a new backend process "
                                            "rejected it: " +
                                            compiled.message};
    }
  }
  if (child.prepared(id)) return std::nullopt;
  // The driver's compiler (a pipeline, clBuildProgram) runs here, apart from
  // the dispatch, so that a compile that never ends is named as one.
  const uint64_t call = child.next_call();
  auto reply = exchange<PrepareReplyMessage>(
      child, call, encode(PrepareMessage{id, call}),
      "the driver's compile of " + program_label(id) + " (prepare: its pipeline or kernel)",
      options_.call_timeout, decode_prepare_reply);
  if (auto* failure = std::get_if<CallFailure>(&reply)) return *failure;
  child.mark_prepared(id);
  return std::nullopt;
}

std::variant<std::shared_ptr<ChildConnection>, CallFailure> IsolatedBackend::child_for(
    const CompiledProgram& program, const IsolatedProgram*& isolated) {
  isolated = dynamic_cast<const IsolatedProgram*>(&program);
  if (isolated == nullptr) {
    return CallFailure{Status::Error, "dispatch of a program that no isolated backend compiled"};
  }
  Connected child = connection();
  if (auto* failure = std::get_if<CallFailure>(&child)) return *failure;
  auto& connected = std::get<std::shared_ptr<ChildConnection>>(child);
  send_releases(*connected);
  if (auto failure = make_ready(*connected, *isolated)) return *failure;
  return connected;
}

void IsolatedBackend::retire_after(ChildConnection& child, Status status,
                                   const std::string& during) {
  if (status != Status::Timeout && status != Status::DeviceLost) return;
  child.abandon(Status::DeviceLost,
                "was replaced after `" + std::string(name_of(status)) + "` in " + during);
}

std::string IsolatedBackend::name() const {
  std::lock_guard lock(mutex_);
  if (started_once_) return name_;
  return "(isolated backend that did not start: " +
         (start_failure_ ? start_failure_->message : std::string("not tried")) + ")";
}

Capabilities IsolatedBackend::probe() {
  {
    std::lock_guard lock(mutex_);
    if (started_once_) return capabilities_;
  }
  if (auto failure = start()) {
    Capabilities none;
    none.unavailable = failure->message;
    return none;
  }
  std::lock_guard lock(mutex_);
  return capabilities_;
}

bool IsolatedBackend::compiles_concurrently() const {
  std::lock_guard lock(mutex_);
  return compiles_concurrently_;
}

uint32_t IsolatedBackend::concurrent_dispatches() const {
  std::lock_guard lock(mutex_);
  return concurrent_dispatches_;
}

uint32_t IsolatedBackend::useful_processes() const {
  std::lock_guard lock(mutex_);
  return useful_processes_;
}

std::vector<Encoding> IsolatedBackend::encodings() const {
  std::lock_guard lock(mutex_);
  return encodings_;
}

CompileOutcome IsolatedBackend::compile(const Program& program) {
  return compile_encoded(program, Encoding::AsEmitted);
}

CompileOutcome IsolatedBackend::compile_encoded(const Program& program, Encoding encoding) {
  Connected child = connection();
  if (auto* failure = std::get_if<CallFailure>(&child)) {
    return {failure->status, failure->message, nullptr};
  }
  auto& connected = *std::get<std::shared_ptr<ChildConnection>>(child);
  send_releases(connected);
  // Unique across backends, so a program from another one (see
  // IsolatedProgram) never takes the id of one of ours in our child.
  static std::atomic<uint64_t> next_id{1};
  const uint64_t id = next_id++;
  std::string text = print_program(program);
  auto reply = compile_in(connected, id, text, encoding, "compile of " + program_label(id));
  if (auto* failure = std::get_if<CallFailure>(&reply)) {
    return {failure->status, failure->message, nullptr};
  }
  auto& compiled = std::get<CompileReplyMessage>(reply);
  if (compiled.status != Status::Ok) return {compiled.status, compiled.message, nullptr};
  return {Status::Ok, compiled.message,
          std::make_shared<IsolatedProgram>(id, std::move(text), encoding, releases_)};
}

void IsolatedBackend::prepare(const CompiledProgram& program) {
  // Best effort, like every prepare(): a failure here (a compile that never
  // ends kills the child) is met again, and reported, by the dispatch.
  const IsolatedProgram* isolated = nullptr;
  (void)child_for(program, isolated);
}

DispatchOutcome IsolatedBackend::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                          const Grid& grid) {
  const IsolatedProgram* isolated = nullptr;
  auto child = child_for(program, isolated);
  if (auto* failure = std::get_if<CallFailure>(&child)) {
    return {failure->status, failure->message, {}, {}};
  }
  ChildConnection& connected = *std::get<std::shared_ptr<ChildConnection>>(child);
  const uint64_t id = isolated->id();
  const std::string during = "dispatch of " + program_label(id) + " on grid " + grid_label(grid);
  const uint64_t call = connected.next_call();
  // One submission, plus the uploads and readback around it.
  auto reply = exchange<DispatchReplyMessage>(
      connected, call, encode(DispatchMessage{id, grid, inputs, call}), during,
      2 * options_.call_timeout, decode_dispatch_reply);
  if (auto* failure = std::get_if<CallFailure>(&reply)) {
    return {failure->status, failure->message, {}, {}};
  }
  auto& done = std::get<DispatchReplyMessage>(reply);
  retire_after(connected, done.status, during);
  return {done.status, std::move(done.message), std::move(done.outputs), done.timing};
}

BatchOutcome IsolatedBackend::dispatch_runs(const CompiledProgram& program, const BufferSet& inputs,
                                            const Grid& grid, const BatchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const auto failed = [&](CallFailure failure) {
    BatchOutcome outcome;
    outcome.status = failure.status;
    outcome.message = std::move(failure.message);
    finish_batch_timing(
        outcome, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
    return outcome;
  };
  const IsolatedProgram* isolated = nullptr;
  auto child = child_for(program, isolated);
  if (auto* failure = std::get_if<CallFailure>(&child)) return failed(*failure);
  ChildConnection& connected = *std::get<std::shared_ptr<ChildConnection>>(child);
  const uint64_t id = isolated->id();
  const uint32_t runs = std::max<uint32_t>(options.runs, 1);
  const uint32_t submissions = std::clamp<uint32_t>(options.submissions, 1, runs);
  const std::string during = std::to_string(runs) + (runs == 1 ? " run of " : " runs of ") +
                             program_label(id) + " on grid " + grid_label(grid);
  const uint64_t call = connected.next_call();
  // Each submission is bounded by the backend's own wait; this bound is for
  // a process that stops answering altogether: the submissions asked for,
  // and past that as long as each submission the child reports (BatchOptions
  // ::on_submission) follows the last within what a dispatch gets (a backend
  // may use more submissions than asked for, to bound memory).
  auto reply = exchange<DispatchRunsReplyMessage>(
      connected, call, encode(DispatchRunsMessage{id, grid, inputs, options, call}), during,
      (submissions + 1) * options_.call_timeout, decode_dispatch_runs_reply,
      QuietLimit{2 * options_.call_timeout + kProgressInterval, "its submission"});
  if (auto* failure = std::get_if<CallFailure>(&reply)) return failed(*failure);
  BatchOutcome& outcome = std::get<DispatchRunsReplyMessage>(reply).outcome;
  retire_after(connected, outcome.status, during);
  return std::move(outcome);
}

HostedRunsOutcome IsolatedBackend::run_hosted(const HostedWork& work,
                                              const HostedRunsOptions& options) {
  const auto failed = [](CallFailure failure) {
    HostedRunsOutcome outcome;
    outcome.status = failure.status;
    outcome.message = std::move(failure.message);
    return outcome;
  };
  Connected child = connection(work.id());
  if (auto* failure = std::get_if<CallFailure>(&child)) return failed(*failure);
  ChildConnection& connected = *std::get<std::shared_ptr<ChildConnection>>(child);
  send_releases(connected);
  const std::string during = "the host-driven runs of `" + work.name() + "`";
  const uint64_t call = connected.next_call();
  // Each backend call of the work gets what a dispatch gets, from the
  // progress report of its start (reports come at most kProgressInterval
  // apart, so a call may begin that long before its report would have).
  const std::chrono::milliseconds per_call = 2 * options_.call_timeout + kProgressInterval;
  auto reply = exchange<HostedRunsReplyMessage>(
      connected, call, encode(HostedRunsMessage{work.id(), options, call}), during, per_call,
      decode_hosted_runs_reply, QuietLimit{per_call, "it started backend call"});
  if (auto* failure = std::get_if<CallFailure>(&reply)) return failed(*failure);
  HostedRunsOutcome& outcome = std::get<HostedRunsReplyMessage>(reply).outcome;
  // A backend that reported a hang or a lost device during the work is not
  // trusted with the next call, as after a dispatch.
  Status ended = outcome.prepare_status;
  for (const std::optional<HostedRun>& run : outcome.runs) {
    if (run && run->status != Status::Ok) {
      ended = run->status;
      break;
    }
  }
  retire_after(connected, ended, during);
  if (outcome.runs.size() > options.runs) {
    connected.abandon(Status::DeviceLost, "was killed after a malformed reply to another call");
    return failed({Status::BadOutput,
                   "backend process sent " + std::to_string(outcome.runs.size()) + " runs for " +
                       std::to_string(options.runs) + " asked during " + during + "; killed it"});
  }
  outcome.runs.resize(options.runs);
  return std::move(outcome);
}

std::optional<DriverCacheUse> IsolatedBackend::driver_cache() const {
  std::shared_ptr<ChildConnection> child;
  {
    std::lock_guard lock(mutex_);
    child = child_;
  }
  if (!child || !child->alive()) return std::nullopt;
  const uint64_t call = child->next_call();
  auto reply = exchange<DriverCacheReplyMessage>(*child, call, encode(DriverCacheMessage{call}),
                                                 "the query of the driver cache's counts",
                                                 options_.call_timeout, decode_driver_cache_reply);
  if (auto* answered = std::get_if<DriverCacheReplyMessage>(&reply)) return answered->cache;
  return std::nullopt;
}

}  // namespace vyre::isolation
