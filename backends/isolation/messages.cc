#include "backends/isolation/messages.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "backends/isolation/message_fields.h"
#include "backends/isolation/wire_format.h"

namespace vyre::isolation {
namespace {

Frame framed(MessageKind kind, WireWriter& writer) {
  return Frame{static_cast<uint32_t>(kind), writer.take()};
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
