#include "backends/isolation/child_server.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "backends/isolation/messages.h"
#include "spec/text/text_format.h"

namespace vyre::isolation {
namespace {

constexpr int kExitBrokenRequest = 2;
constexpr int kExitCannotReply = 3;

// The child blocks on its parent without a deadline: the parent owns every
// time limit and kills the child when one passes.
constexpr Deadline kNoDeadline = std::nullopt;

class Server {
 public:
  Server(Backend& backend, int replies_fd) : backend_(backend), replies_fd_(replies_fd) {}

  // Handles one request; the exit status when the child must stop.
  std::optional<int> handle(const Frame& request) {
    switch (static_cast<MessageKind>(request.kind)) {
      case MessageKind::Compile:
        if (auto m = decode_compile(request)) return reply(encode(compile(*m)));
        break;
      case MessageKind::Dispatch:
        if (auto m = decode_dispatch(request)) return reply(encode(dispatch(*m)));
        break;
      case MessageKind::Release:
        if (auto m = decode_release(request)) {
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
  std::optional<int> reply(const Frame& frame) {
    if (write_frame(replies_fd_, frame, kNoDeadline)) return kExitCannotReply;
    return std::nullopt;
  }

  CompileReplyMessage compile(const CompileMessage& request) {
    Result<Program> program = parse_program(request.text);
    if (!program) {
      return {Status::Error, "isolation: the backend process could not parse the program text: " +
                                 program.error().message};
    }
    CompileOutcome outcome = backend_.compile(*program);
    if (outcome.status == Status::Ok) {
      if (outcome.program == nullptr) {
        return {Status::BadOutput, "compile returned ok without a compiled program"};
      }
      programs_[request.id] = std::move(outcome.program);
    }
    return {outcome.status, std::move(outcome.message)};
  }

  DispatchReplyMessage dispatch(const DispatchMessage& request) {
    auto program = programs_.find(request.id);
    if (program == programs_.end()) {
      return {Status::Error,
              "isolation: the backend process holds no program #" + std::to_string(request.id),
              {},
              {}};
    }
    DispatchOutcome outcome = backend_.dispatch(*program->second, request.inputs, request.grid);
    return {outcome.status, std::move(outcome.message), outcome.timing, std::move(outcome.outputs)};
  }

  Backend& backend_;
  int replies_fd_;
  std::map<uint64_t, std::shared_ptr<const CompiledProgram>> programs_;
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
  HelloMessage hello{true, backend.name(), "", backend.probe()};
  if (write_frame(replies_fd, encode(hello), kNoDeadline)) return kExitCannotReply;

  Server server(backend, replies_fd);
  for (;;) {
    auto request = read_frame(requests_fd, kNoDeadline, max_message_bytes);
    if (auto* failure = std::get_if<ChannelFailure>(&request)) {
      return failure->kind == ChannelFailure::Kind::Closed ? 0 : kExitBrokenRequest;
    }
    if (auto exit_status = server.handle(std::get<Frame>(request))) return *exit_status;
  }
}

}  // namespace vyre::isolation
