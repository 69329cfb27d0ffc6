// Every isolation message survives encode/decode, and a decoder rejects the
// wrong kind, unknown status codes and cut-off payloads.
#include "backends/isolation/messages.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace vyre::isolation {
namespace {

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
  auto decoded = decode_dispatch_reply(encode(CompileReplyMessage{Status::Ok, ""}));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().message, "expected a dispatch reply message, got message kind 3");
}

TEST(Messages, UnknownStatusCodeIsRejected) {
  Frame frame = encode(CompileReplyMessage{Status::Ok, "fine"});
  frame.payload[0] = 7;  // One past Status::Error.
  auto decoded = decode_compile_reply(frame);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error().message, "malformed compile reply message: unknown status code 7");
}

Status any_status() {
  return static_cast<Status>(*rc::gen::inRange<int>(0, static_cast<int>(Status::Error) + 1));
}

RC_GTEST_PROP(Messages, DispatchReplyRoundTrips,
              (const std::string& message, const BufferSet& outputs, double execute_ms)) {
  DispatchReplyMessage sent{any_status(), message, {0.5, 1.5, execute_ms, 2.5}, outputs};
  auto back = decode_dispatch_reply(encode(sent));
  RC_ASSERT(back.ok());
  RC_ASSERT(back->status == sent.status);
  RC_ASSERT(back->message == message);
  RC_ASSERT(back->outputs == outputs);
  RC_ASSERT(std::bit_cast<uint64_t>(back->timing.execute_ms) ==
            std::bit_cast<uint64_t>(execute_ms));
  RC_ASSERT(back->timing.readback_ms == 2.5);
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

}  // namespace
}  // namespace vyre::isolation
