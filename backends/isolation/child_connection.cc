#include "backends/isolation/child_connection.h"

#include <csignal>
#include <utility>

namespace vyre::isolation {
namespace {

constexpr const char* kStartUp = "start-up (creating and probing the backend)";

std::string ms_text(std::chrono::milliseconds ms) {
  return std::to_string(ms.count()) + " ms";
}

// What a call in flight (or the start-up) reports when the child was lost
// with `failure`; `ended` is how the process ended once reaped.
CallFailure loss(const ChannelFailure& failure, const std::string& ended, const std::string& during,
                 std::chrono::milliseconds timeout) {
  switch (failure.kind) {
    case ChannelFailure::Kind::Closed:
      if (ended == "killed") {
        return {Status::Crashed,
                "backend process closed its pipe without exiting during " + during + "; killed it"};
      }
      return {Status::Crashed, "backend process crashed (" + ended + ") during " + during};
    case ChannelFailure::Kind::TimedOut:
      return {Status::Timeout, "backend process did not answer within " + ms_text(timeout) +
                                   " during " + during + "; killed it"};
    case ChannelFailure::Kind::Malformed:
      return {Status::BadOutput, "backend process sent a malformed reply during " + during + " (" +
                                     failure.detail + "); killed it"};
    case ChannelFailure::Kind::System:
      break;
  }
  return {Status::Error, "lost the backend process during " + during + ": " + failure.detail};
}

}  // namespace

std::variant<std::unique_ptr<ChildConnection>, CallFailure> ChildConnection::start(
    std::function<int()> body, const IsolationOptions& options, HelloMessage& hello) {
  std::unique_ptr<ChildConnection> connection(new ChildConnection(options));
  ChildConnection& c = *connection;
  c.reader_ = std::thread([&c, body = std::move(body), &hello] { c.serve_replies(body, hello); });
  std::unique_lock lock(c.mutex_);
  c.changed_.wait(lock, [&c] { return c.started_; });
  if (c.start_failure_) return *c.start_failure_;
  lock.unlock();
  return connection;
}

ChildConnection::~ChildConnection() {
  {
    std::lock_guard lock(mutex_);
    dead_ = true;
  }
  {
    std::lock_guard lock(write_mutex_);
    if (process_) process_->close_requests();
  }
  std::unique_lock lock(mutex_);
  if (!changed_.wait_for(lock, options_.shutdown_grace, [this] { return finished_; })) {
    lock.unlock();
    kill_child();
  } else {
    lock.unlock();
  }
  if (reader_.joinable()) reader_.join();
}

void ChildConnection::serve_replies(const std::function<int()>& body, HelloMessage& hello) {
  std::optional<CallFailure> failure;
  // Read before the fork: the child holds at least every work up to here.
  hosted_generation_ = last_hosted_work_id();
  auto spawned = ChildProcess::spawn(body);
  if (!spawned) {
    failure =
        CallFailure{Status::Error, "cannot start the backend process: " + spawned.error().message};
  } else {
    process_ = std::move(spawned.value());
    failure = read_hello(hello);
  }
  const bool serving = !failure && hello.ok;
  {
    std::lock_guard lock(mutex_);
    started_ = true;
    start_failure_ = failure;
    dead_ = !serving;
    changed_.notify_all();
  }
  if (serving) {
    Frame frame;
    for (;;) {
      if (auto lost = read_frame_into(process_->replies(), std::nullopt, options_.max_message_bytes,
                                      frame)) {
        lose_child(*lost);
        break;
      }
      if (frame.kind == static_cast<uint32_t>(MessageKind::Progress)) {
        if (note_progress(frame)) continue;
        lose_child({ChannelFailure::Kind::Malformed, "a malformed progress message"});
        break;
      }
      Result<uint64_t> call = call_id_of(frame);
      std::unique_lock lock(mutex_);
      auto waiting = call ? pending_.find(*call) : pending_.end();
      if (waiting == pending_.end()) {
        lock.unlock();
        lose_child({ChannelFailure::Kind::Malformed,
                    call ? "a reply to call " + std::to_string(*call) + ", which is not waiting"
                         : call.error().message});
        break;
      }
      waiting->second->reply = std::exchange(frame, Frame{});
      changed_.notify_all();
    }
  } else if (process_) {
    {
      std::lock_guard lock(mutex_);
      reaping_ = true;
    }
    std::lock_guard lock(write_mutex_);
    process_->reap(options_.shutdown_grace);
  }
  std::lock_guard lock(mutex_);
  finished_ = true;
  changed_.notify_all();
}

std::optional<CallFailure> ChildConnection::read_hello(HelloMessage& hello) {
  auto frame = read_frame(process_->replies(), deadline_in(options_.startup_timeout),
                          options_.max_message_bytes);
  std::optional<ChannelFailure> lost;
  if (auto* channel = std::get_if<ChannelFailure>(&frame)) {
    lost = *channel;
  } else if (auto decoded = decode_hello(std::get<Frame>(frame)); !decoded) {
    lost = ChannelFailure{ChannelFailure::Kind::Malformed, decoded.error().message};
  } else {
    hello = std::move(decoded.value());
    if (hello.ok) return std::nullopt;
    return CallFailure{Status::Error, "the backend failed to start: " + hello.error};
  }
  {
    std::lock_guard lock(mutex_);
    reaping_ = true;
  }
  std::lock_guard lock(write_mutex_);
  const bool closed = lost->kind == ChannelFailure::Kind::Closed;
  std::string ended =
      process_->reap(closed ? options_.shutdown_grace : std::chrono::milliseconds(0));
  CallFailure failure = loss(*lost, ended, kStartUp, options_.startup_timeout);
  // A backend that dies while starting is an error to start, not a crash of a call.
  if (failure.status == Status::Crashed) failure.status = Status::Error;
  return failure;
}

void ChildConnection::lose_child(const ChannelFailure& failure) {
  {
    std::lock_guard lock(mutex_);
    dead_ = true;
    reaping_ = true;
  }
  const bool closed = failure.kind == ChannelFailure::Kind::Closed;
  // A child still running after a malformed reply may not be reading: kill
  // it before taking the write lock a blocked writer may hold.
  if (!closed) ::kill(process_->pid(), SIGKILL);
  std::string ended;
  {
    std::lock_guard lock(write_mutex_);
    ended = process_->reap(closed ? options_.shutdown_grace : std::chrono::milliseconds(0));
  }
  std::lock_guard lock(mutex_);
  const size_t in_flight = pending_.size();
  for (auto& [call, pending] : pending_) {
    if (pending->reply || pending->failure) continue;
    CallFailure lost = loss(failure, ended, pending->during, options_.call_timeout);
    if (in_flight > 1) {
      lost.message += " (" + std::to_string(in_flight - 1) +
                      " other call(s) were in flight; any of them may have caused it)";
    }
    pending->failure = std::move(lost);
  }
  changed_.notify_all();
}

bool ChildConnection::note_progress(const Frame& frame) {
  Result<ProgressMessage> progress = decode_progress(frame);
  if (!progress) return false;
  std::lock_guard lock(mutex_);
  // A call no longer waiting has timed out and its child is being killed.
  auto waiting = pending_.find(progress->call);
  if (waiting == pending_.end()) return true;
  waiting->second->progress = std::chrono::steady_clock::now();
  waiting->second->progress_calls = progress->calls;
  changed_.notify_all();
  return true;
}

std::variant<Frame, CallFailure> ChildConnection::call(uint64_t call, const Frame& request,
                                                       const std::string& during,
                                                       std::chrono::milliseconds timeout,
                                                       std::optional<QuietLimit> quiet) {
  Pending mine{during, std::nullopt, std::nullopt, std::nullopt, 0};
  {
    std::lock_guard lock(mutex_);
    if (dead_) {
      return CallFailure{Status::DeviceLost,
                         "the backend process ended before " + during + " could start"};
    }
    pending_[call] = &mine;
  }
  const Deadline deadline = deadline_in(timeout);
  std::optional<ChannelFailure> wrote;
  {
    std::lock_guard lock(write_mutex_);
    wrote = process_->requests() < 0
                ? ChannelFailure{ChannelFailure::Kind::Closed, "the requests pipe is closed"}
                : write_frame(process_->requests(), request, deadline);
  }
  std::unique_lock lock(mutex_);
  // A write cut off by the child's end (Closed) leaves the reader to say how
  // it ended; a write past the deadline is the timeout below.
  if (wrote && wrote->kind != ChannelFailure::Kind::Closed &&
      wrote->kind != ChannelFailure::Kind::TimedOut && !mine.failure) {
    mine.failure = loss(*wrote, "", during, timeout);
  }
  const auto answered = [&mine] { return mine.reply || mine.failure; };
  // Each progress report moves a quiet limit's deadline; the wait ends at a
  // deadline no report moved.
  auto limit = *deadline;
  while (!changed_.wait_until(lock, limit, answered)) {
    if (!quiet || !mine.progress || *mine.progress + quiet->limit <= limit) break;
    limit = *mine.progress + quiet->limit;
  }
  pending_.erase(call);
  if (mine.reply) return std::move(*mine.reply);
  if (mine.failure) {
    CallFailure failure = std::move(*mine.failure);
    lock.unlock();
    if (failure.status == Status::Error)
      abandon(Status::DeviceLost, "was lost (" + failure.message + ")");
    return failure;
  }
  std::string silent = during;
  std::chrono::milliseconds waited = timeout;
  if (quiet && mine.progress) {
    silent +=
        " (after " + std::string(quiet->counts) + " #" + std::to_string(mine.progress_calls) + ")";
    waited = quiet->limit;
  }
  lock.unlock();
  abandon(Status::DeviceLost, "was killed because another call did not answer within " +
                                  ms_text(waited) + " (" + silent + ")");
  return loss({ChannelFailure::Kind::TimedOut, ""}, "", silent, waited);
}

void ChildConnection::send(const Frame& request) {
  std::optional<ChannelFailure> wrote;
  {
    std::lock_guard lock(write_mutex_);
    if (process_->requests() < 0) return;
    wrote = write_frame(process_->requests(), request, deadline_in(options_.call_timeout));
  }
  if (wrote && wrote->kind != ChannelFailure::Kind::Closed) {
    abandon(Status::DeviceLost,
            "was killed because a release of programs could not be sent (" + wrote->detail + ")");
  }
}

bool ChildConnection::alive() const {
  std::lock_guard lock(mutex_);
  return !dead_;
}

void ChildConnection::abandon(Status status, const std::string& why) {
  {
    std::lock_guard lock(mutex_);
    dead_ = true;
    for (auto& [call, pending] : pending_) {
      if (pending->reply || pending->failure) continue;
      pending->failure =
          CallFailure{status, "backend process " + why + " during " + pending->during};
    }
    changed_.notify_all();
  }
  kill_child();
}

void ChildConnection::kill_child() {
  std::lock_guard lock(mutex_);
  // Once the reader reaps, the pid may belong to another process.
  if (!reaping_ && !finished_ && process_) ::kill(process_->pid(), SIGKILL);
}

bool ChildConnection::holds(uint64_t id) {
  std::lock_guard lock(mutex_);
  return held_.contains(id);
}

bool ChildConnection::prepared(uint64_t id) {
  std::lock_guard lock(mutex_);
  return prepared_.contains(id);
}

void ChildConnection::mark_held(uint64_t id) {
  std::lock_guard lock(mutex_);
  held_.insert(id);
}

void ChildConnection::mark_prepared(uint64_t id) {
  std::lock_guard lock(mutex_);
  prepared_.insert(id);
}

bool ChildConnection::forget(uint64_t id) {
  std::lock_guard lock(mutex_);
  prepared_.erase(id);
  return held_.erase(id) > 0;
}

}  // namespace vyre::isolation
