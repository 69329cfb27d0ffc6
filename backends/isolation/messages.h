// The messages between an isolated backend and its child process. The child
// speaks first (Hello, which carries the probe); after that every Compile,
// Prepare, Dispatch, DispatchRuns, HostedRuns and DriverCache gets exactly one
// reply, and Release gets none. While HostedRuns runs, the child may also send Progress
// frames carrying its call id, any number, before the reply. Several calls may be in flight at
// once: each request carries a call id, first in its payload, and its reply carries the same id
// (call_id_of reads it without decoding the rest).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"
#include "backends/hosted_work.h"
#include "backends/isolation/frame_io.h"
#include "spec/support/result.h"

namespace vyre::isolation {

/// The child sends at most one Progress per call this often: a backend call
/// of hosted work that begins sooner after the last report goes unreported,
/// so the parent allows this long on top of each call's own limit.
inline constexpr std::chrono::milliseconds kProgressInterval{100};

/// The kind word of a frame.
enum class MessageKind : uint32_t {
  Hello = 1,              ///< Child to parent, once: the backend started (or why not).
  Compile = 2,            ///< Parent to child: program id and program text.
  CompileReply = 3,       ///< Child to parent.
  Dispatch = 4,           ///< Parent to child: program id, grid and input buffers.
  DispatchReply = 5,      ///< Child to parent.
  Release = 6,            ///< Parent to child: program ids no longer needed.
  DispatchRuns = 7,       ///< Parent to child: a whole batch (Backend::dispatch_runs).
  DispatchRunsReply = 8,  ///< Child to parent.
  Prepare = 9,            ///< Parent to child: build a program's device objects.
  PrepareReply = 10,      ///< Child to parent, once prepare() returned.
  HostedRuns = 11,        ///< Parent to child: make the runs of a HostedWork there.
  HostedRunsReply = 12,   ///< Child to parent.
  Progress = 13,          ///< Child to parent: hosted work in flight made a backend call.
  DriverCache = 14,       ///< Parent to child: how has the on-disk driver cache served so far?
  DriverCacheReply = 15,  ///< Child to parent: the backend's driver_cache().
};

/// The child's first message: its backend's name and probe, or why it failed.
struct HelloMessage {
  bool ok = false;
  std::string name;
  std::string error;
  Capabilities capabilities;
  bool compiles_concurrently = false;  ///< The backend's compiles_concurrently().
  uint32_t concurrent_dispatches = 1;  ///< The backend's concurrent_dispatches().
  std::vector<Encoding> encodings;     ///< The backend's encodings().
  uint32_t useful_processes = 1;       ///< The backend's useful_processes().
};

/// Compile `text` in `encoding` and keep the result under `id`.
struct CompileMessage {
  uint64_t id = 0;
  std::string text;
  uint64_t call = 0;
  Encoding encoding = Encoding::AsEmitted;
};

/// The outcome of a compile, without the program (it stays in the child).
struct CompileReplyMessage {
  Status status = Status::Error;
  std::string message;
  uint64_t call = 0;
};

/// Dispatch program `id` once.
struct DispatchMessage {
  uint64_t id = 0;
  Grid grid;
  BufferSet inputs;
  uint64_t call = 0;
};

/// The outcome of a dispatch.
struct DispatchReplyMessage {
  Status status = Status::Error;
  std::string message;
  DispatchTiming timing;
  BufferSet outputs;
  uint64_t call = 0;
};

/// Run program `id` as Backend::dispatch_runs does, the whole batch in the
/// child: only run 0's outputs and the differing runs come back.
struct DispatchRunsMessage {
  uint64_t id = 0;
  Grid grid;
  BufferSet inputs;
  BatchOptions options;
  uint64_t call = 0;
};

/// The outcome of a batch.
struct DispatchRunsReplyMessage {
  BatchOutcome outcome;
  uint64_t call = 0;
};

/// Build ahead the device objects of program `id` (Backend::prepare).
struct PrepareMessage {
  uint64_t id = 0;
  uint64_t call = 0;
};

/// prepare() returned (it reports nothing else).
struct PrepareReplyMessage {
  uint64_t call = 0;
};

/// Prepare the HostedWork registered under `work` (the child's copy, from
/// the fork) on the child's backend and make its runs (Backend::run_hosted).
struct HostedRunsMessage {
  uint64_t work = 0;
  HostedRunsOptions options;
  uint64_t call = 0;
};

/// The outcome of hosted runs. On the wire a run whose outputs equal an
/// earlier run's names that run instead of repeating its bytes.
struct HostedRunsReplyMessage {
  HostedRunsOutcome outcome;
  uint64_t call = 0;
};

/// Hosted work of call `call` started its `calls`-th backend call: the
/// parent's limit for that call runs from here.
struct ProgressMessage {
  uint64_t call = 0;
  uint64_t calls = 0;
};

/// Ask the child's backend for its driver_cache().
struct DriverCacheMessage {
  uint64_t call = 0;
};

/// The child's backend's driver_cache(): nullopt when it keeps no cache. On
/// the wire a presence byte, then (when present) dir, what and the counts.
struct DriverCacheReplyMessage {
  std::optional<DriverCacheUse> cache;
  uint64_t call = 0;
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
Frame encode(const DispatchRunsMessage& message);
Frame encode(const DispatchRunsReplyMessage& message);
Frame encode(const PrepareMessage& message);
Frame encode(const PrepareReplyMessage& message);
Frame encode(const HostedRunsMessage& message);
Frame encode(const HostedRunsReplyMessage& message);
Frame encode(const ProgressMessage& message);
Frame encode(const DriverCacheMessage& message);
Frame encode(const DriverCacheReplyMessage& message);

/// The call id of a request or reply (the first u64 of its payload); an
/// Error for Hello, Release and a payload too short to hold one.
Result<uint64_t> call_id_of(const Frame& frame);

/// Each decoder checks the frame kind and the whole payload; an Error says
/// what is malformed (an unknown status code included).
Result<HelloMessage> decode_hello(const Frame& frame);
Result<CompileMessage> decode_compile(const Frame& frame);
Result<CompileReplyMessage> decode_compile_reply(const Frame& frame);
Result<DispatchMessage> decode_dispatch(const Frame& frame);
Result<DispatchReplyMessage> decode_dispatch_reply(const Frame& frame);
Result<ReleaseMessage> decode_release(const Frame& frame);
Result<DispatchRunsMessage> decode_dispatch_runs(const Frame& frame);
Result<DispatchRunsReplyMessage> decode_dispatch_runs_reply(const Frame& frame);
Result<PrepareMessage> decode_prepare(const Frame& frame);
Result<PrepareReplyMessage> decode_prepare_reply(const Frame& frame);
Result<HostedRunsMessage> decode_hosted_runs(const Frame& frame);
Result<HostedRunsReplyMessage> decode_hosted_runs_reply(const Frame& frame);
Result<ProgressMessage> decode_progress(const Frame& frame);
Result<DriverCacheMessage> decode_driver_cache(const Frame& frame);
Result<DriverCacheReplyMessage> decode_driver_cache_reply(const Frame& frame);

}  // namespace vyre::isolation
