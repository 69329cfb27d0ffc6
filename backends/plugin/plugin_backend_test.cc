// A loaded plugin as a vyre::Backend, in this process: the example plugin
// computes the right bytes, and each broken answer of the misbehaving plugin
// becomes the right Status with a message saying what was wrong.
#include "backends/plugin/plugin_backend.h"

#include <gtest/gtest.h>

#include "backends/plugin/plugin_loader.h"
#include "backends/plugin/plugin_status.h"
#include "backends/plugin/plugin_test_paths.h"
#include "backends/plugin/plugin_test_programs.h"

namespace vyre {
namespace {

using namespace plugin::testing;

std::unique_ptr<Backend> load(const std::string& path) {
  auto loaded = load_plugin_backend(path);
  EXPECT_TRUE(loaded.ok()) << loaded.error().message;
  return loaded.ok() ? std::move(loaded.value()) : nullptr;
}

TEST(PluginStatus, CodesOutsideTheAbiAreUnknown) {
  EXPECT_EQ(plugin::status_from_code(VYRE_STATUS_OK), Status::Ok);
  EXPECT_EQ(plugin::status_from_code(VYRE_STATUS_ERROR), Status::Error);
  EXPECT_EQ(plugin::status_from_code(7), std::nullopt);
  EXPECT_EQ(plugin::status_from_code(-1), std::nullopt);
  EXPECT_EQ(plugin::code_name(VYRE_STATUS_TIMEOUT), "VYRE_STATUS_TIMEOUT");
  EXPECT_EQ(plugin::code_name(42), "unknown");
}

TEST(ExamplePlugin, ProbeComesThroughTheAbi) {
  auto backend = load(kExamplePlugin);
  ASSERT_NE(backend, nullptr);
  Capabilities caps = backend->probe();
  EXPECT_EQ(caps.device_name, "vyre reference interpreter (CPU)");
  EXPECT_EQ(caps.driver, "vyre-certify example plugin 0.1.0");
  EXPECT_EQ(caps.max_workgroup_invocations, 1024u);
  EXPECT_EQ(caps.max_workgroup_count, (std::array<uint32_t, 3>{65535, 65535, 65535}));
  EXPECT_EQ(caps.max_uniform_buffer_bytes, 65536u);
  EXPECT_EQ(caps.preferred_workgroup_size, 64u);
  EXPECT_TRUE(caps.unavailable.empty());
}

TEST(MisbehavingPlugin, UnsetPreferredWorkgroupSizeIsTheDefault) {
  PluginMode mode("ok");
  auto backend = load(kMisbehavingPlugin);
  ASSERT_NE(backend, nullptr);
  // Its probe leaves preferred_workgroup_size unset (0): unknown, so 64.
  EXPECT_EQ(backend->probe().preferred_workgroup_size, 64u);
}

TEST(ExamplePlugin, DispatchGivesTheHandComputedBytes) {
  auto backend = load(kExamplePlugin);
  ASSERT_NE(backend, nullptr);
  // One workgroup of 4, then 4 workgroups of 1: the grid reaches the plugin.
  for (auto [width, groups] : {std::pair<uint32_t, uint32_t>{4, 1}, {1, 4}}) {
    CompileOutcome compiled = backend->compile(doubling_program(width));
    ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
    DispatchOutcome out =
        backend->dispatch(*compiled.program, doubling_inputs(), Grid{{groups, 1, 1}});
    ASSERT_EQ(out.status, Status::Ok) << out.message;
    EXPECT_EQ(out.outputs, (BufferSet{{"out", doubling_expected()}}));
  }
}

TEST(ExamplePlugin, InvalidProgramIsACompileError) {
  using namespace build;
  Program bad{
      {storage("out", 0, BufferAccess::ReadWrite)}, {1, 1, 1}, {store("nowhere", u32(0), u32(1))}};
  auto backend = load(kExamplePlugin);
  ASSERT_NE(backend, nullptr);
  CompileOutcome compiled = backend->compile(bad);
  EXPECT_EQ(compiled.status, Status::CompileError);
  EXPECT_EQ(compiled.message.rfind("invalid program: ", 0), 0u) << compiled.message;
  EXPECT_EQ(compiled.program, nullptr);
}

TEST(ExamplePlugin, ProgramOfAnotherBackendIsRejected) {
  auto first = load(kExamplePlugin);
  auto second = load(kExamplePlugin);
  ASSERT_TRUE(first && second);
  auto program = first->compile(doubling_program(4)).program;
  ASSERT_NE(program, nullptr);
  DispatchOutcome out = second->dispatch(*program, doubling_inputs(), Grid{});
  EXPECT_EQ(out.status, Status::Error);
  EXPECT_EQ(out.message, "dispatch of a program that this plugin backend did not compile");
}

// One misbehaviour, what the host must make of it.
struct Misbehaviour {
  const char* mode;
  Status status;
  std::string message;  ///< Expected exactly.
};

const Misbehaviour kDispatchMisbehaviours[] = {
    {"short", Status::BadOutput,
     "plugin output: buffer 'out' has 15 bytes, expected 16 (the size of its input)"},
    {"missing", Status::BadOutput,
     "plugin output: missing read_write buffer 'out' (expected 16 bytes)"},
    {"unknown_buffer", Status::BadOutput,
     "plugin output: 2 output buffers returned, but the program has 1 read_write buffers ('out')"},
    {"null_data", Status::BadOutput,
     "plugin output: buffer 'out' has 16 bytes but a NULL data pointer"},
    {"garbage_status", Status::Error,
     "dispatch() returned the unknown status code 42 (message: none)"},
    {"error", Status::Error, "deliberate failure"},
};

TEST(MisbehavingPlugin, EachBrokenDispatchGetsItsStatus) {
  for (const Misbehaviour& m : kDispatchMisbehaviours) {
    PluginMode mode("ok");
    auto backend = load(kMisbehavingPlugin);
    ASSERT_NE(backend, nullptr);
    auto program = backend->compile(doubling_program(4)).program;
    ASSERT_NE(program, nullptr);
    mode.set(m.mode);
    DispatchOutcome out = backend->dispatch(*program, doubling_inputs(), Grid{});
    EXPECT_EQ(out.status, m.status) << m.mode;
    EXPECT_EQ(out.message, m.message) << m.mode;
    EXPECT_TRUE(out.outputs.empty()) << m.mode;
    mode.set("ok");
    DispatchOutcome next = backend->dispatch(*program, doubling_inputs(), Grid{});
    ASSERT_EQ(next.status, Status::Ok) << m.mode << ": " << next.message;
    EXPECT_EQ(next.outputs.at("out"), incremented_out());
  }
}

TEST(MisbehavingPlugin, BrokenCompilesGetTheirStatus) {
  PluginMode mode("ok");
  auto backend = load(kMisbehavingPlugin);
  ASSERT_NE(backend, nullptr);
  mode.set("compile_null_handle");
  CompileOutcome null_handle = backend->compile(doubling_program(4));
  EXPECT_EQ(null_handle.status, Status::BadOutput);
  EXPECT_EQ(null_handle.message, "compile() returned VYRE_STATUS_OK but a NULL program handle");
  mode.set("not_supported");
  CompileOutcome unsupported = backend->compile(doubling_program(4));
  EXPECT_EQ(unsupported.status, Status::NotSupported);
  EXPECT_EQ(unsupported.message, "no such feature");
  EXPECT_EQ(unsupported.program, nullptr);
}

}  // namespace
}  // namespace vyre
