// The messages between an isolated backend and its child process. The child
// speaks first (Hello, which carries the probe); after that every Compile and
// Dispatch gets exactly one reply, and Release gets none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/isolation/frame_io.h"
#include "spec/support/result.h"

namespace vyre::isolation {

/// The kind word of a frame.
enum class MessageKind : uint32_t {
  Hello = 1,          ///< Child to parent, once: the backend started (or why not).
  Compile = 2,        ///< Parent to child: program id and program text.
  CompileReply = 3,   ///< Child to parent.
  Dispatch = 4,       ///< Parent to child: program id, grid and input buffers.
  DispatchReply = 5,  ///< Child to parent.
  Release = 6,        ///< Parent to child: program ids no longer needed.
};

/// The child's first message: its backend's name and probe, or why it failed.
struct HelloMessage {
  bool ok = false;
  std::string name;
  std::string error;
  Capabilities capabilities;
};

/// Compile `text` and keep the result under `id`.
struct CompileMessage {
  uint64_t id = 0;
  std::string text;
};

/// The outcome of a compile, without the program (it stays in the child).
struct CompileReplyMessage {
  Status status = Status::Error;
  std::string message;
};

/// Dispatch program `id` once.
struct DispatchMessage {
  uint64_t id = 0;
  Grid grid;
  BufferSet inputs;
};

/// The outcome of a dispatch.
struct DispatchReplyMessage {
  Status status = Status::Error;
  std::string message;
  DispatchTiming timing;
  BufferSet outputs;
};

/// Forget these program ids.
struct ReleaseMessage {
  std::vector<uint64_t> ids;
};

Frame encode(const HelloMessage& message);
Frame encode(const CompileMessage& message);
Frame encode(const CompileReplyMessage& message);
Frame encode(const DispatchMessage& message);
Frame encode(const DispatchReplyMessage& message);
Frame encode(const ReleaseMessage& message);

/// Each decoder checks the frame kind and the whole payload; an Error says
/// what is malformed (an unknown status code included).
Result<HelloMessage> decode_hello(const Frame& frame);
Result<CompileMessage> decode_compile(const Frame& frame);
Result<CompileReplyMessage> decode_compile_reply(const Frame& frame);
Result<DispatchMessage> decode_dispatch(const Frame& frame);
Result<DispatchReplyMessage> decode_dispatch_reply(const Frame& frame);
Result<ReleaseMessage> decode_release(const Frame& frame);

}  // namespace vyre::isolation
