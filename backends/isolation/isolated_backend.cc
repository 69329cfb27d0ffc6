#include "backends/isolation/isolated_backend.h"

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

IsolatedProgram::IsolatedProgram(uint64_t id, std::string text,
                                 std::shared_ptr<ReleaseQueue> releases)
    : id_(id), text_(std::move(text)), releases_(std::move(releases)) {}

IsolatedProgram::~IsolatedProgram() {
  releases_->push(id_);
}

IsolatedBackend::IsolatedBackend(BackendFactory factory, IsolationOptions options)
    : factory_(std::move(factory)), options_(options) {}

IsolatedBackend::~IsolatedBackend() {
  std::lock_guard lock(mutex_);
  if (child_) child_->process->reap(options_.shutdown_grace);
}

std::optional<CallFailure> IsolatedBackend::start() {
  std::lock_guard lock(mutex_);
  return ensure_child();
}

std::optional<CallFailure> IsolatedBackend::ensure_child() {
  if (child_) return std::nullopt;
  if (failed_starts_ >= options_.max_start_attempts && start_failure_) {
    return CallFailure{start_failure_->status,
                       "gave up starting the backend process after " +
                           std::to_string(failed_starts_) +
                           " failed starts; the last: " + start_failure_->message};
  }
  std::optional<CallFailure> failure = try_start();
  failed_starts_ = failure ? failed_starts_ + 1 : 0;
  if (failure) start_failure_ = failure;
  return failure;
}

std::optional<CallFailure> IsolatedBackend::try_start() {
  auto spawned = ChildProcess::spawn([this] {
    return serve_backend(factory_, kChildRequestFd, kChildReplyFd, options_.max_message_bytes);
  });
  if (!spawned) {
    return CallFailure{Status::Error,
                       "cannot start the backend process: " + spawned.error().message};
  }
  child_ = Child{std::move(spawned.value()), {}};
  const std::string during = "start-up (creating and probing the backend)";
  auto frame = read_frame(child_->process->replies(), deadline_in(options_.startup_timeout),
                          options_.max_message_bytes);
  std::optional<CallFailure> failure;
  if (auto* channel = std::get_if<ChannelFailure>(&frame)) {
    failure = lose_child(*channel, during, options_.startup_timeout);
  } else if (auto hello = decode_hello(std::get<Frame>(frame)); !hello) {
    failure = lose_child({ChannelFailure::Kind::Malformed, hello.error().message}, during,
                         options_.startup_timeout);
  } else if (!hello->ok) {
    child_->process->reap(options_.shutdown_grace);
    child_.reset();
    failure = CallFailure{Status::Error, "the backend failed to start: " + hello->error};
  } else if (!started_once_) {
    started_once_ = true;
    name_ = hello->name;
    capabilities_ = hello->capabilities;
  }
  return failure;
}

CallFailure IsolatedBackend::lose_child(const ChannelFailure& failure, const std::string& during,
                                        std::chrono::milliseconds timeout) {
  ChildProcess& process = *child_->process;
  CallFailure lost{Status::Error, ""};
  switch (failure.kind) {
    case ChannelFailure::Kind::Closed: {
      std::string ended = process.reap(options_.shutdown_grace);
      lost.message = ended == "killed" ? "backend process closed its pipe without exiting during " +
                                             during + "; killed it"
                                       : "backend process crashed (" + ended + ") during " + during;
      break;
    }
    case ChannelFailure::Kind::TimedOut:
      process.kill_now();
      lost = {Status::Timeout, "backend process did not answer within " +
                                   std::to_string(timeout.count()) + " ms during " + during +
                                   "; killed it"};
      break;
    case ChannelFailure::Kind::Malformed:
      process.kill_now();
      lost = {Status::BadOutput, "backend process sent a malformed reply during " + during + " (" +
                                     failure.detail + "); killed it"};
      break;
    case ChannelFailure::Kind::System:
      process.kill_now();
      lost.message = "lost the backend process during " + during + ": " + failure.detail;
      break;
  }
  child_.reset();
  return lost;
}

std::optional<CallFailure> IsolatedBackend::exchange(const Frame& request,
                                                     const std::string& during) {
  Deadline deadline = deadline_in(options_.call_timeout);
  auto failure = write_frame(child_->process->requests(), request, deadline);
  if (!failure) {
    failure =
        read_frame_into(child_->process->replies(), deadline, options_.max_message_bytes, reply_);
  }
  if (failure) return lose_child(*failure, during, options_.call_timeout);
  return std::nullopt;
}

std::variant<CompileReplyMessage, CallFailure> IsolatedBackend::compile_in_child(
    uint64_t id, const std::string& text, const std::string& during) {
  if (auto failure = exchange(encode(CompileMessage{id, text}), during)) return *failure;
  auto decoded = decode_compile_reply(reply_);
  if (!decoded) {
    return lose_child({ChannelFailure::Kind::Malformed, decoded.error().message}, during,
                      options_.call_timeout);
  }
  if (decoded->status == Status::Ok) child_->compiled.insert(id);
  return std::move(decoded.value());
}

void IsolatedBackend::send_releases() {
  std::vector<uint64_t> dropped = releases_->take();
  if (!child_) return;
  ReleaseMessage message;
  for (uint64_t id : dropped) {
    if (child_->compiled.erase(id) > 0) message.ids.push_back(id);
  }
  if (message.ids.empty()) return;
  if (auto failure = write_frame(child_->process->requests(), encode(message),
                                 deadline_in(options_.call_timeout))) {
    // The next call starts a fresh child, which holds none of these programs.
    lose_child(*failure, "release of programs", options_.call_timeout);
  }
}

std::string IsolatedBackend::name() const {
  std::lock_guard lock(mutex_);
  if (started_once_) return name_;
  return "(isolated backend that did not start: " +
         (start_failure_ ? start_failure_->message : std::string("not tried")) + ")";
}

Capabilities IsolatedBackend::probe() {
  std::lock_guard lock(mutex_);
  if (!started_once_) {
    if (auto failure = ensure_child()) {
      Capabilities none;
      none.unavailable = failure->message;
      return none;
    }
  }
  return capabilities_;
}

CompileOutcome IsolatedBackend::compile(const Program& program) {
  std::lock_guard lock(mutex_);
  send_releases();
  if (auto failure = ensure_child()) return {failure->status, failure->message, nullptr};
  uint64_t id = next_id_++;
  std::string text = print_program(program);
  auto reply = compile_in_child(id, text, "compile of " + program_label(id));
  if (auto* failure = std::get_if<CallFailure>(&reply)) {
    return {failure->status, failure->message, nullptr};
  }
  auto& compiled = std::get<CompileReplyMessage>(reply);
  if (compiled.status != Status::Ok) return {compiled.status, compiled.message, nullptr};
  return {Status::Ok, compiled.message,
          std::make_shared<IsolatedProgram>(id, std::move(text), releases_)};
}

DispatchOutcome IsolatedBackend::dispatch(const CompiledProgram& program, const BufferSet& inputs,
                                          const Grid& grid) {
  const auto* isolated = dynamic_cast<const IsolatedProgram*>(&program);
  if (isolated == nullptr || !isolated->compiled_by(releases_.get())) {
    return {
        Status::Error, "dispatch of a program that this isolated backend did not compile", {}, {}};
  }
  std::lock_guard lock(mutex_);
  send_releases();
  if (auto failure = ensure_child()) return {failure->status, failure->message, {}, {}};
  uint64_t id = isolated->id();
  if (!child_->compiled.contains(id)) {
    auto reply = compile_in_child(
        id, isolated->text(), "re-compile of " + program_label(id) + " for a new backend process");
    if (auto* failure = std::get_if<CallFailure>(&reply)) {
      return {failure->status, failure->message, {}, {}};
    }
    if (auto& compiled = std::get<CompileReplyMessage>(reply); compiled.status != Status::Ok) {
      return {Status::Error,
              program_label(id) +
                  " compiled before, but a new backend process rejected it: " + compiled.message,
              {},
              {}};
    }
  }
  std::string during = "dispatch of " + program_label(id) + " on grid " + grid_label(grid);
  if (auto failure = exchange(encode(DispatchMessage{id, grid, inputs}), during)) {
    return {failure->status, failure->message, {}, {}};
  }
  auto decoded = decode_dispatch_reply(reply_);
  if (!decoded) {
    CallFailure lost = lose_child({ChannelFailure::Kind::Malformed, decoded.error().message},
                                  during, options_.call_timeout);
    return {lost.status, lost.message, {}, {}};
  }
  return {decoded->status, std::move(decoded->message), std::move(decoded->outputs),
          decoded->timing};
}

}  // namespace vyre::isolation
