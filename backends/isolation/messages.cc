#include "backends/isolation/messages.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "backends/isolation/wire_format.h"

namespace vyre::isolation {
namespace {

Frame framed(MessageKind kind, WireWriter& writer) {
  return Frame{static_cast<uint32_t>(kind), writer.take()};
}

void put_status(WireWriter& w, Status status) {
  w.u8(static_cast<uint8_t>(status));
}

Status get_status(WireReader& r) {
  uint8_t code = r.u8();
  if (code > static_cast<uint8_t>(kLastStatus)) {
    r.fail("unknown status code " + std::to_string(code));
    return Status::Error;
  }
  return static_cast<Status>(code);
}

void put_axes(WireWriter& w, const std::array<uint32_t, 3>& axes) {
  for (uint32_t v : axes) w.u32(v);
}

std::array<uint32_t, 3> get_axes(WireReader& r) {
  std::array<uint32_t, 3> axes{};
  for (uint32_t& v : axes) v = r.u32();
  return axes;
}

void put_capabilities(WireWriter& w, const Capabilities& c) {
  w.text(c.unavailable);
  w.text(c.device_name);
  w.text(c.driver);
  w.text(c.api);
  w.u32(c.max_workgroup_invocations);
  put_axes(w, c.max_workgroup_size);
  put_axes(w, c.max_workgroup_count);
  w.u64(c.max_dispatch_invocations);
  w.u64(c.max_storage_buffer_bytes);
  w.u64(c.max_uniform_buffer_bytes);
  w.u64(c.max_workgroup_memory_bytes);
  w.u32(c.preferred_workgroup_size);
}

/// Bounds on BatchOptions::scratch as a frame carries it: a program names
/// no more buffers than this, none longer.
constexpr uint32_t kMaxScratchBuffers = 4096;
constexpr size_t kMaxScratchNameBytes = 1024;

/// The counts, then the scratch names: a count (u32), then each name.
void put_batch_options(WireWriter& w, const BatchOptions& o) {
  w.u32(o.runs);
  w.u32(o.submissions);
  w.u32(o.reported_differing);
  w.u32(static_cast<uint32_t>(o.scratch.size()));
  for (const std::string& name : o.scratch) w.text(name);
}

/// Rejects more than kMaxScratchBuffers scratch names, and an empty, overlong
/// or repeated name.
BatchOptions get_batch_options(WireReader& r) {
  BatchOptions o;
  o.runs = r.u32();
  o.submissions = r.u32();
  o.reported_differing = r.u32();
  const uint32_t scratch = r.u32();
  if (scratch > kMaxScratchBuffers) {
    r.fail("a batch names " + std::to_string(scratch) + " scratch buffers, more than " +
           std::to_string(kMaxScratchBuffers));
    return o;
  }
  for (uint32_t i = 0; i < scratch && !r.failed(); ++i) {
    std::string name = r.text();
    if (r.failed()) break;
    if (name.empty() || name.size() > kMaxScratchNameBytes) {
      r.fail("a scratch buffer name of " + std::to_string(name.size()) + " bytes (1 to " +
             std::to_string(kMaxScratchNameBytes) + ")");
    } else if (std::find(o.scratch.begin(), o.scratch.end(), name) != o.scratch.end()) {
      r.fail("scratch buffer '" + name + "' is named twice");
    } else {
      o.scratch.push_back(std::move(name));
    }
  }
  return o;
}

/// A device time: a presence byte, then the milliseconds when present.
void put_device_ms(WireWriter& w, const std::optional<double>& ms) {
  w.u8(ms ? 1 : 0);
  if (ms) w.f64(*ms);
}

/// Rejects a presence byte other than 0 or 1 and a time that is negative,
/// not finite or NaN: the child's measurement passes on only as one.
std::optional<double> get_device_ms(WireReader& r) {
  const uint8_t present = r.u8();
  if (present > 1) {
    r.fail("a device time's presence byte is " + std::to_string(present) + ", not 0 or 1");
    return std::nullopt;
  }
  if (present == 0) return std::nullopt;
  const double ms = r.f64();
  if (!std::isfinite(ms) || ms < 0) {
    r.fail("a device time is negative or not a finite number");
    return std::nullopt;
  }
  return ms;
}

void put_batch_outcome(WireWriter& w, const BatchOutcome& b) {
  put_status(w, b.status);
  w.text(b.message);
  w.u32(b.failed_run);
  w.buffers(b.first_outputs);
  w.u32(static_cast<uint32_t>(b.differing.size()));
  for (const DifferingRun& run : b.differing) {
    w.u32(run.run);
    w.buffers(run.outputs);
  }
  w.u32(b.differing_runs);
  w.u32(b.dispatches);
  w.u32(b.submissions);
  w.f64(b.timing.total_ms);
  w.f64(b.timing.setup_ms);
  w.f64(b.timing.per_dispatch_us);
  put_device_ms(w, b.timing.device_ms);
}

BatchOutcome get_batch_outcome(WireReader& r) {
  BatchOutcome b;
  b.status = get_status(r);
  b.message = r.text();
  b.failed_run = r.u32();
  b.first_outputs = r.buffers();
  uint32_t differing = r.u32();
  for (uint32_t i = 0; i < differing && !r.failed(); ++i) {
    DifferingRun run;
    run.run = r.u32();
    run.outputs = r.buffers();
    b.differing.push_back(std::move(run));
  }
  b.differing_runs = r.u32();
  b.dispatches = r.u32();
  b.submissions = r.u32();
  b.timing.total_ms = r.f64();
  b.timing.setup_ms = r.f64();
  b.timing.per_dispatch_us = r.f64();
  b.timing.device_ms = get_device_ms(r);
  return b;
}

Capabilities get_capabilities(WireReader& r) {
  Capabilities c;
  c.unavailable = r.text();
  c.device_name = r.text();
  c.driver = r.text();
  c.api = r.text();
  c.max_workgroup_invocations = r.u32();
  c.max_workgroup_size = get_axes(r);
  c.max_workgroup_count = get_axes(r);
  c.max_dispatch_invocations = r.u64();
  c.max_storage_buffer_bytes = r.u64();
  c.max_uniform_buffer_bytes = r.u64();
  c.max_workgroup_memory_bytes = r.u64();
  c.preferred_workgroup_size = r.u32();
  return c;
}

// Runs `read` over the payload of a frame of kind `kind`; the result only if
// the kind matched and the payload was consumed exactly.
template <typename T, typename ReadFn>
Result<T> decoded(const Frame& frame, MessageKind kind, const char* what, ReadFn read) {
  if (frame.kind != static_cast<uint32_t>(kind)) {
    return Error{std::string("expected a ") + what + " message, got message kind " +
                 std::to_string(frame.kind)};
  }
  WireReader reader(frame.payload);
  T message = read(reader);
  if (Result<Ok> done = reader.finish(); !done) {
    return Error{std::string("malformed ") + what + " message: " + done.error().message};
  }
  return message;
}

/// Number of Encoding values; codes at or past it are malformed.
constexpr uint32_t kEncodingCount = static_cast<uint32_t>(Encoding::ClOptDisable) + 1;

void put_encoding(WireWriter& w, Encoding e) {
  w.u8(static_cast<uint8_t>(e));
}

Encoding get_encoding(WireReader& r) {
  const uint8_t code = r.u8();
  if (code >= kEncodingCount) {
    r.fail("unknown encoding code " + std::to_string(code));
    return Encoding::AsEmitted;
  }
  return static_cast<Encoding>(code);
}

void put_hosted_run(WireWriter& w, const HostedRun& run) {
  put_status(w, run.status);
  w.text(run.message);
}

/// Each run: a presence byte; for a started run its status, message and
/// either 0 and its outputs, or 1 + the index of an earlier run with the same
/// outputs (the runs of a passing case mostly agree: their bytes go once).
void put_hosted_outcome(WireWriter& w, const HostedRunsOutcome& o) {
  put_status(w, o.status);
  w.text(o.message);
  put_status(w, o.prepare_status);
  w.text(o.prepare_message);
  w.u64(o.prepare_us);
  w.u64(o.runs_us);
  put_device_ms(w, o.device_ms);
  w.u32(static_cast<uint32_t>(o.runs.size()));
  std::vector<uint32_t> distinct;  // Runs whose outputs went on the wire.
  for (uint32_t i = 0; i < o.runs.size(); ++i) {
    const std::optional<HostedRun>& run = o.runs[i];
    w.u8(run ? 1 : 0);
    if (!run) continue;
    put_hosted_run(w, *run);
    auto same = std::find_if(distinct.begin(), distinct.end(),
                             [&](uint32_t d) { return o.runs[d]->outputs == run->outputs; });
    if (same != distinct.end()) {
      w.u32(*same + 1);
      continue;
    }
    w.u32(0);
    w.buffers(run->outputs);
    distinct.push_back(i);
  }
}

HostedRunsOutcome get_hosted_outcome(WireReader& r) {
  HostedRunsOutcome o;
  o.status = get_status(r);
  o.message = r.text();
  o.prepare_status = get_status(r);
  o.prepare_message = r.text();
  o.prepare_us = r.u64();
  o.runs_us = r.u64();
  o.device_ms = get_device_ms(r);
  const uint32_t runs = r.u32();
  for (uint32_t i = 0; i < runs && !r.failed(); ++i) {
    const uint8_t present = r.u8();
    if (present > 1) r.fail("a run's presence byte is " + std::to_string(present));
    if (present != 1) {
      o.runs.emplace_back();
      continue;
    }
    HostedRun run;
    run.status = get_status(r);
    run.message = r.text();
    const uint32_t same = r.u32();
    if (same == 0) {
      run.outputs = r.buffers();
    } else if (same > i || !o.runs[same - 1]) {
      r.fail("run " + std::to_string(i) + " names run " + std::to_string(same - 1) +
             ", which is not an earlier started run");
    } else {
      run.outputs = o.runs[same - 1]->outputs;
    }
    o.runs.emplace_back(std::move(run));
  }
  return o;
}

/// A driver cache's use: a presence byte, then its dir, what and counts.
void put_driver_cache(WireWriter& w, const std::optional<DriverCacheUse>& cache) {
  w.u8(cache ? 1 : 0);
  if (!cache) return;
  w.text(cache->dir);
  w.text(cache->what);
  w.u64(cache->hits);
  w.u64(cache->misses);
  w.u64(cache->rejected);
  w.u64(cache->stored);
}

/// Rejects a presence byte other than 0 or 1.
std::optional<DriverCacheUse> get_driver_cache(WireReader& r) {
  const uint8_t present = r.u8();
  if (present > 1) {
    r.fail("a driver cache's presence byte is " + std::to_string(present) + ", not 0 or 1");
    return std::nullopt;
  }
  if (present == 0) return std::nullopt;
  DriverCacheUse cache;
  cache.dir = r.text();
  cache.what = r.text();
  cache.hits = r.u64();
  cache.misses = r.u64();
  cache.rejected = r.u64();
  cache.stored = r.u64();
  return cache;
}

}  // namespace

Frame encode(const HelloMessage& m) {
  WireWriter w;
  w.u8(m.ok ? 1 : 0);
  w.text(m.name);
  w.text(m.error);
  put_capabilities(w, m.capabilities);
  w.u8(m.compiles_concurrently ? 1 : 0);
  w.u32(m.concurrent_dispatches);
  w.u32(static_cast<uint32_t>(m.encodings.size()));
  for (Encoding e : m.encodings) put_encoding(w, e);
  w.u32(m.useful_processes);
  return framed(MessageKind::Hello, w);
}

Frame encode(const CompileMessage& m) {
  WireWriter w;
  w.u64(m.call);
  w.u64(m.id);
  w.text(m.text);
  put_encoding(w, m.encoding);
  return framed(MessageKind::Compile, w);
}

Frame encode(const CompileReplyMessage& m) {
  WireWriter w;
  w.u64(m.call);
  put_status(w, m.status);
  w.text(m.message);
  return framed(MessageKind::CompileReply, w);
}

Frame encode(const DispatchMessage& m) {
  WireWriter w;
  w.u64(m.call);
  w.u64(m.id);
  put_axes(w, m.grid.workgroups);
  w.buffers(m.inputs);
  return framed(MessageKind::Dispatch, w);
}

Frame encode(const DispatchReplyMessage& m) {
  WireWriter w;
  w.u64(m.call);
  put_status(w, m.status);
  w.text(m.message);
  w.f64(m.timing.setup_ms);
  w.f64(m.timing.upload_ms);
  w.f64(m.timing.execute_ms);
  w.f64(m.timing.readback_ms);
  put_device_ms(w, m.timing.device_ms);
  w.buffers(m.outputs);
  return framed(MessageKind::DispatchReply, w);
}

Frame encode(const ReleaseMessage& m) {
  WireWriter w;
  w.u32(static_cast<uint32_t>(m.ids.size()));
  for (uint64_t id : m.ids) w.u64(id);
  return framed(MessageKind::Release, w);
}

Frame encode(const DispatchRunsMessage& m) {
  WireWriter w;
  w.u64(m.call);
  w.u64(m.id);
  put_axes(w, m.grid.workgroups);
  put_batch_options(w, m.options);
  w.buffers(m.inputs);
  return framed(MessageKind::DispatchRuns, w);
}

Frame encode(const DispatchRunsReplyMessage& m) {
  WireWriter w;
  w.u64(m.call);
  put_batch_outcome(w, m.outcome);
  return framed(MessageKind::DispatchRunsReply, w);
}

Frame encode(const PrepareMessage& m) {
  WireWriter w;
  w.u64(m.call);
  w.u64(m.id);
  return framed(MessageKind::Prepare, w);
}

Frame encode(const PrepareReplyMessage& m) {
  WireWriter w;
  w.u64(m.call);
  return framed(MessageKind::PrepareReply, w);
}

Frame encode(const HostedRunsMessage& m) {
  WireWriter w;
  w.u64(m.call);
  w.u64(m.work);
  w.u32(m.options.runs);
  w.u32(m.options.threads);
  w.u64(static_cast<uint64_t>(m.options.budget.count()));
  return framed(MessageKind::HostedRuns, w);
}

Frame encode(const HostedRunsReplyMessage& m) {
  WireWriter w;
  w.u64(m.call);
  put_hosted_outcome(w, m.outcome);
  return framed(MessageKind::HostedRunsReply, w);
}

Frame encode(const ProgressMessage& m) {
  WireWriter w;
  w.u64(m.call);
  w.u64(m.calls);
  return framed(MessageKind::Progress, w);
}

Frame encode(const DriverCacheMessage& m) {
  WireWriter w;
  w.u64(m.call);
  return framed(MessageKind::DriverCache, w);
}

Frame encode(const DriverCacheReplyMessage& m) {
  WireWriter w;
  w.u64(m.call);
  put_driver_cache(w, m.cache);
  return framed(MessageKind::DriverCacheReply, w);
}

Result<uint64_t> call_id_of(const Frame& frame) {
  const auto kind = static_cast<MessageKind>(frame.kind);
  if (kind == MessageKind::Hello || kind == MessageKind::Release) {
    return Error{"message kind " + std::to_string(frame.kind) + " carries no call id"};
  }
  WireReader r(frame.payload);
  uint64_t call = r.u64();
  if (r.failed()) return Error{"a message too short to hold its call id"};
  return call;
}

Result<HelloMessage> decode_hello(const Frame& frame) {
  return decoded<HelloMessage>(frame, MessageKind::Hello, "hello", [](WireReader& r) {
    HelloMessage m;
    uint8_t ok = r.u8();
    if (ok > 1) r.fail("the ok flag is " + std::to_string(ok));
    m.ok = ok == 1;
    m.name = r.text();
    m.error = r.text();
    m.capabilities = get_capabilities(r);
    uint8_t concurrent = r.u8();
    if (concurrent > 1) r.fail("the compiles_concurrently flag is " + std::to_string(concurrent));
    m.compiles_concurrently = concurrent == 1;
    m.concurrent_dispatches = r.u32();
    const uint32_t encodings = r.u32();
    // Fewer than the encodings there are; a larger count is a broken frame.
    if (encodings > kEncodingCount) r.fail(std::to_string(encodings) + " encodings listed");
    for (uint32_t i = 0; i < encodings && i < kEncodingCount; ++i) {
      m.encodings.push_back(get_encoding(r));
    }
    m.useful_processes = r.u32();
    return m;
  });
}

Result<CompileMessage> decode_compile(const Frame& frame) {
  return decoded<CompileMessage>(frame, MessageKind::Compile, "compile", [](WireReader& r) {
    CompileMessage m;
    m.call = r.u64();
    m.id = r.u64();
    m.text = r.text();
    m.encoding = get_encoding(r);
    return m;
  });
}

Result<CompileReplyMessage> decode_compile_reply(const Frame& frame) {
  return decoded<CompileReplyMessage>(frame, MessageKind::CompileReply, "compile reply",
                                      [](WireReader& r) {
                                        CompileReplyMessage m;
                                        m.call = r.u64();
                                        m.status = get_status(r);
                                        m.message = r.text();
                                        return m;
                                      });
}

Result<DispatchMessage> decode_dispatch(const Frame& frame) {
  return decoded<DispatchMessage>(frame, MessageKind::Dispatch, "dispatch", [](WireReader& r) {
    DispatchMessage m;
    m.call = r.u64();
    m.id = r.u64();
    m.grid.workgroups = get_axes(r);
    m.inputs = r.buffers();
    return m;
  });
}

Result<DispatchReplyMessage> decode_dispatch_reply(const Frame& frame) {
  return decoded<DispatchReplyMessage>(frame, MessageKind::DispatchReply, "dispatch reply",
                                       [](WireReader& r) {
                                         DispatchReplyMessage m;
                                         m.call = r.u64();
                                         m.status = get_status(r);
                                         m.message = r.text();
                                         m.timing.setup_ms = r.f64();
                                         m.timing.upload_ms = r.f64();
                                         m.timing.execute_ms = r.f64();
                                         m.timing.readback_ms = r.f64();
                                         m.timing.device_ms = get_device_ms(r);
                                         m.outputs = r.buffers();
                                         return m;
                                       });
}

Result<ReleaseMessage> decode_release(const Frame& frame) {
  return decoded<ReleaseMessage>(frame, MessageKind::Release, "release", [](WireReader& r) {
    ReleaseMessage m;
    uint32_t count = r.u32();
    for (uint32_t i = 0; i < count && !r.failed(); ++i) m.ids.push_back(r.u64());
    return m;
  });
}

Result<DispatchRunsMessage> decode_dispatch_runs(const Frame& frame) {
  return decoded<DispatchRunsMessage>(frame, MessageKind::DispatchRuns, "dispatch runs",
                                      [](WireReader& r) {
                                        DispatchRunsMessage m;
                                        m.call = r.u64();
                                        m.id = r.u64();
                                        m.grid.workgroups = get_axes(r);
                                        m.options = get_batch_options(r);
                                        m.inputs = r.buffers();
                                        return m;
                                      });
}

Result<DispatchRunsReplyMessage> decode_dispatch_runs_reply(const Frame& frame) {
  return decoded<DispatchRunsReplyMessage>(frame, MessageKind::DispatchRunsReply,
                                           "dispatch runs reply", [](WireReader& r) {
                                             DispatchRunsReplyMessage m;
                                             m.call = r.u64();
                                             m.outcome = get_batch_outcome(r);
                                             return m;
                                           });
}

Result<PrepareMessage> decode_prepare(const Frame& frame) {
  return decoded<PrepareMessage>(frame, MessageKind::Prepare, "prepare", [](WireReader& r) {
    PrepareMessage m;
    m.call = r.u64();
    m.id = r.u64();
    return m;
  });
}

Result<PrepareReplyMessage> decode_prepare_reply(const Frame& frame) {
  return decoded<PrepareReplyMessage>(frame, MessageKind::PrepareReply, "prepare reply",
                                      [](WireReader& r) {
                                        PrepareReplyMessage m;
                                        m.call = r.u64();
                                        return m;
                                      });
}

Result<HostedRunsMessage> decode_hosted_runs(const Frame& frame) {
  return decoded<HostedRunsMessage>(
      frame, MessageKind::HostedRuns, "hosted runs", [](WireReader& r) {
        HostedRunsMessage m;
        m.call = r.u64();
        m.work = r.u64();
        m.options.runs = r.u32();
        m.options.threads = r.u32();
        const uint64_t budget = r.u64();
        if (budget > uint64_t{INT64_MAX}) r.fail("budget past i64");
        m.options.budget =
            std::chrono::milliseconds(static_cast<int64_t>(std::min<uint64_t>(budget, INT64_MAX)));
        return m;
      });
}

Result<HostedRunsReplyMessage> decode_hosted_runs_reply(const Frame& frame) {
  return decoded<HostedRunsReplyMessage>(frame, MessageKind::HostedRunsReply, "hosted runs reply",
                                         [](WireReader& r) {
                                           HostedRunsReplyMessage m;
                                           m.call = r.u64();
                                           m.outcome = get_hosted_outcome(r);
                                           return m;
                                         });
}

Result<ProgressMessage> decode_progress(const Frame& frame) {
  return decoded<ProgressMessage>(frame, MessageKind::Progress, "progress", [](WireReader& r) {
    ProgressMessage m;
    m.call = r.u64();
    m.calls = r.u64();
    return m;
  });
}

Result<DriverCacheMessage> decode_driver_cache(const Frame& frame) {
  return decoded<DriverCacheMessage>(frame, MessageKind::DriverCache, "driver cache",
                                     [](WireReader& r) {
                                       DriverCacheMessage m;
                                       m.call = r.u64();
                                       return m;
                                     });
}

Result<DriverCacheReplyMessage> decode_driver_cache_reply(const Frame& frame) {
  return decoded<DriverCacheReplyMessage>(frame, MessageKind::DriverCacheReply,
                                          "driver cache reply", [](WireReader& r) {
                                            DriverCacheReplyMessage m;
                                            m.call = r.u64();
                                            m.cache = get_driver_cache(r);
                                            return m;
                                          });
}

}  // namespace vyre::isolation
