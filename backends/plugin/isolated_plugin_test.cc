// Plugins through the loader AND process isolation, as vyre-certify runs
// them: the example plugin's bytes, every misbehaviour's Status, crashes and
// hangs survived, and the call after them working again.
#include "backends/plugin/isolated_plugin.h"

#include <gtest/gtest.h>

#include <cctype>

#include "backends/plugin/plugin_test_paths.h"
#include "backends/plugin/plugin_test_programs.h"
#include "spec/support/sanitized_share.h"

namespace vyre {
namespace {

// The message with each "#<digits>" as "#N": program ids are unique in the
// process, so a test's first program is not #1.
std::string numbered(std::string message) {
  for (size_t at = message.find('#'); at != std::string::npos; at = message.find('#', at + 1)) {
    size_t end = at + 1;
    while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) ++end;
    if (end > at + 1) message.replace(at + 1, end - at - 1, "N");
  }
  return message;
}

using namespace plugin::testing;
using std::chrono::milliseconds;

// The sanitizer catches the fault itself and ends the child its own way.
constexpr bool kSanitized = kSanitizedBuild;

// Generous limits, as under sanitizers a crashing child spends a while
// symbolizing its report; the hang case alone waits 1 s.
IsolationOptions quick_options(milliseconds call_timeout = milliseconds(20000)) {
  IsolationOptions options;
  options.startup_timeout = milliseconds(20000);
  options.call_timeout = call_timeout;
  options.shutdown_grace = milliseconds(500);
  return options;
}

std::unique_ptr<Backend> start(const std::string& path,
                               const IsolationOptions& options = quick_options()) {
  auto started = isolate_plugin_backend(path, options);
  EXPECT_TRUE(started.ok()) << started.error().message;
  return started.ok() ? std::move(started.value()) : nullptr;
}

TEST(IsolatedPlugin, ExamplePluginGivesTheHandComputedBytes) {
  auto backend = start(kExamplePlugin);
  ASSERT_NE(backend, nullptr);
  EXPECT_EQ(backend->name(), "example-reference");
  EXPECT_EQ(backend->probe().device_name, "vyre reference interpreter (CPU)");
  CompileOutcome compiled = backend->compile(doubling_program(2));
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome out = backend->dispatch(*compiled.program, doubling_inputs(), Grid{{2, 1, 1}});
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs, (BufferSet{{"out", doubling_expected()}}));
}

TEST(IsolatedPlugin, LoaderErrorsAreStartErrors) {
  auto missing = isolate_plugin_backend("/nonexistent/libnothing.so", quick_options());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "the backend failed to start: plugin '/nonexistent/libnothing.so': no such file");
  PluginMode mode("abi_mismatch");
  auto mismatch = isolate_plugin_backend(kMisbehavingPlugin, quick_options());
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.error().message.find("implements vyre plugin ABI version 99"),
            std::string::npos)
      << mismatch.error().message;
}

struct IsolatedMisbehaviour {
  const char* mode;
  Status status;
  const char* message_part;
};

TEST(IsolatedPlugin, EachMisbehaviourGetsItsStatusAndTheNextCallWorks) {
  const IsolatedMisbehaviour cases[] = {
      {"short", Status::BadOutput, "buffer 'out' has 15 bytes, expected 16"},
      {"missing", Status::BadOutput, "missing read_write buffer 'out'"},
      {"null_data", Status::BadOutput, "NULL data pointer"},
      {"garbage_status", Status::Error, "unknown status code 42"},
      {"error", Status::Error, "deliberate failure"},
      {"crash", Status::Crashed,
       kSanitized ? "backend process crashed ("
                  : "backend process crashed (signal 11: SIGSEGV) during dispatch of program #N "
                    "on grid 1x1x1"},
      {"hang", Status::Timeout,
       "backend process did not answer within 2000 ms during dispatch of program #N on grid "
       "1x1x1; killed it"},
  };
  for (const IsolatedMisbehaviour& m : cases) {
    // The child reads the mode when it starts: a new backend per case, and
    // after a crash or hang the new child sees the mode set afterwards.
    PluginMode mode(m.mode);
    bool hangs = m.status == Status::Timeout;
    auto backend = start(kMisbehavingPlugin, quick_options(milliseconds(hangs ? 1000 : 20000)));
    ASSERT_NE(backend, nullptr);
    auto program = backend->compile(doubling_program(4)).program;
    ASSERT_NE(program, nullptr) << m.mode;
    DispatchOutcome out = backend->dispatch(*program, doubling_inputs(), Grid{});
    EXPECT_EQ(out.status, m.status) << m.mode;
    EXPECT_NE(numbered(out.message).find(m.message_part), std::string::npos)
        << m.mode << ": " << out.message;
    if (hangs || std::string(m.mode) == "crash") {  // The child was replaced.
      mode.set("ok");
      DispatchOutcome next = backend->dispatch(*program, doubling_inputs(), Grid{});
      ASSERT_EQ(next.status, Status::Ok) << m.mode << ": " << next.message;
      EXPECT_EQ(next.outputs.at("out"), incremented_out());
    }
  }
}

}  // namespace
}  // namespace vyre
