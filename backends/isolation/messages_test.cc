// Every isolation message survives encode/decode, and a decoder rejects the
// wrong kind, unknown status codes, malformed scratch names and cut-off
// payloads.
#include "backends/isolation/messages.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>
#include <optional>
#include <set>

namespace vyre::isolation {
namespace {

Status any_status() {
  return static_cast<Status>(*rc::gen::inRange<int>(0, static_cast<int>(kLastStatus) + 1));
}

TEST(Messages, HelloRoundTripsEveryCapability) {
  HelloMessage hello;
  hello.ok = true;
  hello.name = "gpu";
  hello.capabilities.unavailable = "";
  hello.capabilities.device_name = "dev";
  hello.capabilities.driver = "drv 1";
  hello.capabilities.api = "api 2";
  hello.capabilities.max_workgroup_invocations = 1024;
  hello.capabilities.max_workgroup_size = {1, 2, 3};
  hello.capabilities.max_workgroup_count = {4, 5, 6};
  hello.capabilities.max_dispatch_invocations = (uint64_t{1} << 33) + 7;
  hello.capabilities.max_storage_buffer_bytes = uint64_t{1} << 40;
  hello.capabilities.max_uniform_buffer_bytes = 65536;
  hello.capabilities.max_workgroup_memory_bytes = 32768;
  hello.capabilities.preferred_workgroup_size = 32;
  auto back = decode_hello(encode(hello));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->ok);
  EXPECT_EQ(back->name, "gpu");
  const Capabilities& c = back->capabilities;
  EXPECT_EQ(c.device_name, "dev");
  EXPECT_EQ(c.driver, "drv 1");
  EXPECT_EQ(c.api, "api 2");
  EXPECT_EQ(c.max_workgroup_invocations, 1024u);
  EXPECT_EQ(c.max_workgroup_size, (std::array<uint32_t, 3>{1, 2, 3}));
  EXPECT_EQ(c.max_workgroup_count, (std::array<uint32_t, 3>{4, 5, 6}));
  EXPECT_EQ(c.max_dispatch_invocations, (uint64_t{1} << 33) + 7);
  EXPECT_EQ(c.max_storage_buffer_bytes, uint64_t{1} << 40);
  EXPECT_EQ(c.max_uniform_buffer_bytes, 65536u);
  EXPECT_EQ(c.max_workgroup_memory_bytes, 32768u);
  EXPECT_EQ(c.preferred_workgroup_size, 32u);
}

TEST(Messages, CompileAndReleaseRoundTrip) {
  auto compile = decode_compile(encode(CompileMessage{17, "program text"}));
  ASSERT_TRUE(compile.ok());
  EXPECT_EQ(compile->id, 17u);
  EXPECT_EQ(compile->text, "program text");
  auto release = decode_release(encode(ReleaseMessage{{3, 1, 2}}));
  ASSERT_TRUE(release.ok());
  EXPECT_EQ(release->ids, (std::vector<uint64_t>{3, 1, 2}));
}

TEST(Messages, WrongKindIsRejected) {
  auto decoded = decode_dispatch_reply(encode(CompileReplyMessage{Status::Ok, "", 1}));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().message, "expected a dispatch reply message, got message kind 3");
}

TEST(Messages, UnknownStatusCodeIsRejected) {
  Frame frame = encode(CompileReplyMessage{Status::Ok, "fine"});
  frame.payload[8] = 8;  // After the call id; one past Status::Crashed.
  auto decoded = decode_compile_reply(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().message, "malformed compile reply message: unknown status code 8");
}

TEST(Messages, EveryCallCarriesItsIdFirst) {
  EXPECT_EQ(*call_id_of(encode(CompileMessage{1, "p", 41})), 41u);
  EXPECT_EQ(*call_id_of(encode(PrepareMessage{1, 42})), 42u);
  EXPECT_EQ(*call_id_of(encode(PrepareReplyMessage{43})), 43u);
  EXPECT_FALSE(call_id_of(encode(ReleaseMessage{{1}})).ok());
  EXPECT_FALSE(call_id_of(Frame{static_cast<uint32_t>(MessageKind::Dispatch), {1, 2}}).ok());
}

TEST(Messages, HelloCarriesTheConcurrencyQueries) {
  HelloMessage hello;
  hello.ok = true;
  hello.compiles_concurrently = true;
  hello.concurrent_dispatches = 8;
  hello.useful_processes = 3;
  auto back = decode_hello(encode(hello));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->compiles_concurrently);
  EXPECT_EQ(back->concurrent_dispatches, 8u);
  EXPECT_EQ(back->useful_processes, 3u);
}

TEST(Messages, EncodingsTravelInTheHelloAndEachCompile) {
  HelloMessage hello;
  hello.ok = true;
  hello.encodings = {Encoding::SpirvOptPerformance, Encoding::SpirvOptSize};
  auto back = decode_hello(encode(hello));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->encodings, hello.encodings);
  auto compile = decode_compile(encode(CompileMessage{5, "p", 6, Encoding::ClOptDisable}));
  ASSERT_TRUE(compile.ok()) << compile.error().message;
  EXPECT_EQ(compile->encoding, Encoding::ClOptDisable);
  // An encoding code past the last is a malformed frame, never another encoding.
  Frame frame = encode(CompileMessage{5, "p", 6, Encoding::ClOptDisable});
  frame.payload.back() = 4;
  auto bad = decode_compile(frame);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unknown encoding code 4"), std::string::npos)
      << bad.error().message;
}

RC_GTEST_PROP(Messages, DispatchRunsAndItsReplyRoundTrip,
              (uint64_t call, const BufferSet& inputs, const BufferSet& first,
               const BufferSet& other, uint32_t runs, const std::set<std::string>& names)) {
  BatchOptions options{runs, 3, 2};
  for (const std::string& name : names) {
    if (!name.empty() && name.size() <= 1024) options.scratch.push_back(name);
  }
  Frame sent = encode(DispatchRunsMessage{9, Grid{{1, 2, 3}}, inputs, options, call});
  auto request = decode_dispatch_runs(sent);
  RC_ASSERT(request.ok());
  RC_ASSERT(request->call == call);
  RC_ASSERT(request->inputs == inputs);
  RC_ASSERT(request->options.runs == runs);
  RC_ASSERT(request->options.submissions == 3u);
  RC_ASSERT(request->options.reported_differing == 2u);
  RC_ASSERT(request->options.scratch == options.scratch);
  sent.payload.resize(*rc::gen::inRange<size_t>(0, sent.payload.size()));
  RC_ASSERT(!decode_dispatch_runs(sent).ok());
  BatchOutcome outcome;
  outcome.status = any_status();
  outcome.message = "m";
  outcome.failed_run = 4;
  outcome.first_outputs = first;
  outcome.differing = {{2, other}, {5, first}};
  outcome.differing_runs = 7;
  outcome.dispatches = runs;
  outcome.submissions = 3;
  outcome.timing = {1.5, 0.25, 12.0, std::nullopt};
  Frame frame = encode(DispatchRunsReplyMessage{outcome, call});
  auto reply = decode_dispatch_runs_reply(frame);
  RC_ASSERT(reply.ok());
  const BatchOutcome& b = reply->outcome;
  RC_ASSERT(reply->call == call);
  RC_ASSERT(b.status == outcome.status);
  RC_ASSERT(b.failed_run == 4u);
  RC_ASSERT(b.first_outputs == first);
  RC_ASSERT(b.differing.size() == 2u);
  RC_ASSERT(b.differing[0].run == 2u && b.differing[0].outputs == other);
  RC_ASSERT(b.differing[1].run == 5u && b.differing[1].outputs == first);
  RC_ASSERT(b.differing_runs == 7u && b.dispatches == runs && b.submissions == 3u);
  RC_ASSERT(b.timing.total_ms == 1.5 && b.timing.setup_ms == 0.25 &&
            b.timing.per_dispatch_us == 12.0);
  frame.payload.resize(*rc::gen::inRange<size_t>(0, frame.payload.size()));
  RC_ASSERT(!decode_dispatch_runs_reply(frame).ok());
}

/// A DispatchRuns frame whose batch options name `scratch`.
Frame dispatch_runs_naming(std::vector<std::string> scratch) {
  BatchOptions options{100, 4, 100};
  options.scratch = std::move(scratch);
  return encode(DispatchRunsMessage{9, Grid{{1, 1, 1}}, {{"in", {1, 2}}}, options, 5});
}

/// decode_dispatch_runs's error for `frame`, "" when it decodes.
std::string decode_error(const Frame& frame) {
  auto decoded = decode_dispatch_runs(frame);
  return decoded.ok() ? std::string() : decoded.error().message;
}

TEST(Messages, MalformedScratchNamesAreRefused) {
  EXPECT_EQ(decode_error(dispatch_runs_naming({"visited_set", "bfs_queue"})), "");
  EXPECT_NE(decode_error(dispatch_runs_naming({""})).find("a scratch buffer name of 0 bytes"),
            std::string::npos);
  EXPECT_NE(decode_error(dispatch_runs_naming({std::string(1025, 'x')}))
                .find("a scratch buffer name of 1025 bytes (1 to 1024)"),
            std::string::npos);
  EXPECT_NE(
      decode_error(dispatch_runs_naming({"a", "b", "a"})).find("scratch buffer 'a' is named twice"),
      std::string::npos);
  // The count sits after call, id, grid and the three counts: 8 + 8 + 12 + 12.
  constexpr size_t kCountAt = 40;
  Frame many = dispatch_runs_naming({});
  ASSERT_EQ(many.payload.at(kCountAt), 0);
  many.payload[kCountAt] = 0x01;
  many.payload[kCountAt + 1] = 0x10;  // 4097 names.
  EXPECT_NE(decode_error(many).find("a batch names 4097 scratch buffers, more than 4096"),
            std::string::npos)
      << decode_error(many);
  // One name more than the frame holds: the inputs are read as a name, and
  // the frame fails rather than decoding as something else.
  Frame short_count = dispatch_runs_naming({"a"});
  ASSERT_EQ(short_count.payload.at(kCountAt), 1);
  short_count.payload[kCountAt] = 2;
  EXPECT_NE(decode_error(short_count), "");
  Frame long_count = dispatch_runs_naming({"a", "b"});
  long_count.payload[kCountAt] = 1;
  EXPECT_NE(decode_error(long_count), "");
}

RC_GTEST_PROP(Messages, DispatchReplyRoundTrips,
              (const std::string& message, const BufferSet& outputs, double execute_ms)) {
  DispatchReplyMessage sent{
      any_status(), message, {0.5, 1.5, execute_ms, 2.5, std::nullopt}, outputs};
  auto back = decode_dispatch_reply(encode(sent));
  RC_ASSERT(back.ok());
  RC_ASSERT(back->status == sent.status);
  RC_ASSERT(back->message == message);
  RC_ASSERT(back->outputs == outputs);
  RC_ASSERT(std::bit_cast<uint64_t>(back->timing.execute_ms) ==
            std::bit_cast<uint64_t>(execute_ms));
  RC_ASSERT(back->timing.readback_ms == 2.5);
}

RC_GTEST_PROP(Messages, DeviceTimeRoundTripsAndStaysAbsentWhenUnmeasured,
              (const BufferSet& outputs, bool measured)) {
  const double device_ms = *rc::gen::inRange<int>(0, 1'000'000) / 7.0;
  DispatchTiming timing{0.5, 1.5, 3.0, 2.5, std::nullopt};
  if (measured) timing.device_ms = device_ms;
  auto single =
      decode_dispatch_reply(encode(DispatchReplyMessage{Status::Ok, "", timing, outputs}));
  RC_ASSERT(single.ok());
  RC_ASSERT(single->timing.device_ms == timing.device_ms);
  BatchOutcome outcome;
  outcome.status = Status::Ok;
  outcome.first_outputs = outputs;
  if (measured) outcome.timing.device_ms = device_ms;
  auto batch = decode_dispatch_runs_reply(encode(DispatchRunsReplyMessage{outcome, 3}));
  RC_ASSERT(batch.ok());
  RC_ASSERT(batch->outcome.timing.device_ms == outcome.timing.device_ms);
}

TEST(Messages, AChildsImpossibleDeviceTimeIsRefused) {
  for (double bad :
       {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    DispatchTiming timing;
    timing.device_ms = bad;
    auto single = decode_dispatch_reply(encode(DispatchReplyMessage{Status::Ok, "", timing, {}}));
    ASSERT_FALSE(single.ok()) << bad;
    EXPECT_NE(single.error().message.find("device time"), std::string::npos)
        << single.error().message;
    BatchOutcome outcome;
    outcome.timing.device_ms = bad;
    EXPECT_FALSE(decode_dispatch_runs_reply(encode(DispatchRunsReplyMessage{outcome, 1})).ok())
        << bad;
  }
  // The presence byte sits after the four phase times (status, message, call first).
  Frame frame = encode(DispatchReplyMessage{Status::Ok, "", DispatchTiming{}, {}});
  const size_t presence = 8 + 1 + 8 + 4 * 8;
  ASSERT_EQ(frame.payload.at(presence), 0);
  frame.payload[presence] = 2;
  EXPECT_FALSE(decode_dispatch_reply(frame).ok());
}

RC_GTEST_PROP(Messages, DispatchRoundTripsAndEveryCutFails,
              (uint64_t id, const std::array<uint32_t, 3>& grid, const BufferSet& inputs)) {
  Frame frame = encode(DispatchMessage{id, Grid{grid}, inputs});
  auto back = decode_dispatch(frame);
  RC_ASSERT(back.ok());
  RC_ASSERT(back->id == id);
  RC_ASSERT(back->grid.workgroups == grid);
  RC_ASSERT(back->inputs == inputs);
  frame.payload.resize(*rc::gen::inRange<size_t>(0, frame.payload.size()));
  RC_ASSERT(!decode_dispatch(frame).ok());
}

TEST(Messages, HostedRunsAndProgressRoundTrip) {
  HostedRunsOptions options{.runs = 100, .threads = 3, .budget = std::chrono::milliseconds(4500)};
  auto request = decode_hosted_runs(encode(HostedRunsMessage{42, options, 9}));
  ASSERT_TRUE(request.ok()) << request.error().message;
  EXPECT_EQ(request->work, 42u);
  EXPECT_EQ(request->call, 9u);
  EXPECT_EQ(request->options.runs, 100u);
  EXPECT_EQ(request->options.threads, 3u);
  EXPECT_EQ(request->options.budget, std::chrono::milliseconds(4500));
  auto progress = decode_progress(encode(ProgressMessage{7, 1234}));
  ASSERT_TRUE(progress.ok()) << progress.error().message;
  EXPECT_EQ(progress->call, 7u);
  EXPECT_EQ(progress->calls, 1234u);
  EXPECT_EQ(*call_id_of(encode(ProgressMessage{7, 1})), 7u);
}

/// An outcome of four runs: runs 0, 2 and 3 agree on `big`, run 1 differs;
/// run 3 failed; a fifth was not started.
HostedRunsOutcome four_runs(const ByteBuffer& big) {
  HostedRunsOutcome o;
  o.prepare_status = Status::Ok;
  o.prepare_message = "compiled";
  o.prepare_us = 11;
  o.runs_us = 22;
  o.device_ms = 3.5;
  o.runs.push_back(HostedRun{Status::Ok, "", {{"findings", big}}});
  o.runs.push_back(HostedRun{Status::Ok, "", {{"findings", {1, 2}}}});
  o.runs.push_back(HostedRun{Status::Ok, "", {{"findings", big}}});
  o.runs.push_back(HostedRun{Status::DeviceLost, "lost it", {{"findings", big}}});
  o.runs.emplace_back();
  return o;
}

TEST(Messages, HostedRunsReplySendsEqualOutputsOnceAndRestoresThem) {
  const ByteBuffer big(100000, 7);
  const HostedRunsOutcome sent = four_runs(big);
  const Frame frame = encode(HostedRunsReplyMessage{sent, 5});
  // One copy of the big outputs on the wire, not three.
  EXPECT_LT(frame.payload.size(), 2 * big.size());
  auto back = decode_hosted_runs_reply(frame);
  ASSERT_TRUE(back.ok()) << back.error().message;
  const HostedRunsOutcome& got = back->outcome;
  EXPECT_EQ(back->call, 5u);
  EXPECT_EQ(got.status, Status::Ok);
  EXPECT_EQ(got.prepare_status, Status::Ok);
  EXPECT_EQ(got.prepare_message, "compiled");
  EXPECT_EQ(got.prepare_us, 11u);
  EXPECT_EQ(got.runs_us, 22u);
  EXPECT_EQ(got.device_ms, 3.5);
  HostedRunsOutcome impossible = sent;
  impossible.device_ms = -1;
  EXPECT_FALSE(decode_hosted_runs_reply(encode(HostedRunsReplyMessage{impossible, 5})).ok());
  ASSERT_EQ(got.runs.size(), 5u);
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(got.runs[i]) << i;
    EXPECT_EQ(got.runs[i]->status, sent.runs[i]->status) << i;
    EXPECT_EQ(got.runs[i]->message, sent.runs[i]->message) << i;
    EXPECT_EQ(got.runs[i]->outputs, sent.runs[i]->outputs) << i;
  }
  EXPECT_FALSE(got.runs[4]);
}

TEST(Messages, AHostedRunNamingNoEarlierStartedRunIsRefused) {
  HostedRunsOutcome o;
  o.prepare_status = Status::Ok;
  o.runs.push_back(HostedRun{Status::Ok, "", {}});
  Frame frame = encode(HostedRunsReplyMessage{o, 1});
  // The last word is run 0's reference: 0 (its own outputs, none) then the
  // buffer count. Naming itself (1) or a later run is malformed.
  ASSERT_GE(frame.payload.size(), 8u);
  const size_t same = frame.payload.size() - 8;
  ASSERT_EQ(frame.payload[same], 0);
  frame.payload.resize(same + 4);
  frame.payload[same] = 1;
  auto back = decode_hosted_runs_reply(frame);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().message.find("not an earlier started run"), std::string::npos)
      << back.error().message;
}

RC_GTEST_PROP(Messages, HostedRunsReplyEveryCutFails, (const BufferSet& outputs)) {
  HostedRunsOutcome o = four_runs({3, 4, 5});
  o.runs[1]->outputs = outputs;
  Frame frame = encode(HostedRunsReplyMessage{o, 2});
  auto back = decode_hosted_runs_reply(frame);
  RC_ASSERT(back.ok());
  RC_ASSERT(back->outcome.runs[1]->outputs == outputs);
  frame.payload.resize(*rc::gen::inRange<size_t>(0, frame.payload.size()));
  RC_ASSERT(!decode_hosted_runs_reply(frame).ok());
}

TEST(Messages, DriverCacheAndItsReplyRoundTrip) {
  auto request = decode_driver_cache(encode(DriverCacheMessage{7}));
  ASSERT_TRUE(request.ok()) << request.error().message;
  EXPECT_EQ(request->call, 7u);
  EXPECT_EQ(*call_id_of(encode(DriverCacheMessage{7})), 7u);

  const DriverCacheUse use{"/cache/dir", "Vulkan pipeline cache", uint64_t{1} << 40, 2, 3,
                           UINT64_MAX};
  const Frame frame = encode(DriverCacheReplyMessage{use, 8});
  EXPECT_EQ(*call_id_of(frame), 8u);
  auto reply = decode_driver_cache_reply(frame);
  ASSERT_TRUE(reply.ok()) << reply.error().message;
  EXPECT_EQ(reply->call, 8u);
  ASSERT_TRUE(reply->cache.has_value());
  EXPECT_EQ(reply->cache->dir, "/cache/dir");
  EXPECT_EQ(reply->cache->what, "Vulkan pipeline cache");
  EXPECT_EQ(reply->cache->hits, uint64_t{1} << 40);
  EXPECT_EQ(reply->cache->misses, 2u);
  EXPECT_EQ(reply->cache->rejected, 3u);
  EXPECT_EQ(reply->cache->stored, UINT64_MAX);

  // A backend that keeps no cache: nothing but the call id and the flag.
  const Frame none = encode(DriverCacheReplyMessage{std::nullopt, 9});
  EXPECT_EQ(none.payload.size(), 9u);
  auto no_cache = decode_driver_cache_reply(none);
  ASSERT_TRUE(no_cache.ok()) << no_cache.error().message;
  EXPECT_EQ(no_cache->call, 9u);
  EXPECT_FALSE(no_cache->cache.has_value());
}

TEST(Messages, MalformedDriverCacheMessagesAreRefused) {
  // Wrong kind, either way round.
  auto wrong = decode_driver_cache_reply(encode(DriverCacheMessage{1}));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().message, "expected a driver cache reply message, got message kind 14");
  EXPECT_FALSE(decode_driver_cache(encode(DriverCacheReplyMessage{std::nullopt, 1})).ok());
  // A request cut short or with bytes after its call id.
  Frame request = encode(DriverCacheMessage{3});
  request.payload.pop_back();
  EXPECT_FALSE(decode_driver_cache(request).ok());
  request = encode(DriverCacheMessage{3});
  request.payload.push_back(0);
  auto trailing_request = decode_driver_cache(request);
  ASSERT_FALSE(trailing_request.ok());
  EXPECT_NE(trailing_request.error().message.find("malformed driver cache message"),
            std::string::npos)
      << trailing_request.error().message;
  // A reply cut anywhere, or with a byte after its counts.
  const Frame reply = encode(DriverCacheReplyMessage{DriverCacheUse{"d", "w", 1, 2, 3, 4}, 5});
  for (size_t size = 0; size < reply.payload.size(); ++size) {
    Frame cut = reply;
    cut.payload.resize(size);
    EXPECT_FALSE(decode_driver_cache_reply(cut).ok()) << "cut to " << size << " bytes";
  }
  Frame longer = reply;
  longer.payload.push_back(0);
  EXPECT_FALSE(decode_driver_cache_reply(longer).ok());
  Frame none_longer = encode(DriverCacheReplyMessage{std::nullopt, 5});
  none_longer.payload.push_back(0);
  EXPECT_FALSE(decode_driver_cache_reply(none_longer).ok());
  // The presence byte, after the call id, is 0 or 1.
  Frame flag = encode(DriverCacheReplyMessage{std::nullopt, 5});
  ASSERT_EQ(flag.payload.at(8), 0);
  flag.payload[8] = 2;
  auto bad_flag = decode_driver_cache_reply(flag);
  ASSERT_FALSE(bad_flag.ok());
  EXPECT_EQ(bad_flag.error().message,
            "malformed driver cache reply message: a driver cache's presence byte is 2, not 0 or "
            "1");
}

}  // namespace
}  // namespace vyre::isolation
