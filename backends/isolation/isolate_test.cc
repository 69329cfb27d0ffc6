// An isolated backend survives its child crashing, hanging, exiting and
// writing garbage, reports each with the right Status, and works again on the
// next call. The child runs testing/fake_backend.h.
#include "backends/isolation/isolate.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cctype>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "backends/isolation/testing/fake_backend.h"
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

using isolation::testing::cache_counts;
using isolation::testing::fake_inputs;
using isolation::testing::fake_program;
using isolation::testing::FakeMode;
using isolation::testing::make_fake_backend;
using isolation::testing::make_fake_backend_with_cache;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The sanitizer catches the fault itself and ends the child its own way.
constexpr bool kSanitized = kSanitizedBuild;

// Generous call limits: under sanitizers a crashing child spends a while
// symbolizing its report. Only the hang tests use hang_options().
IsolationOptions quick_options() {
  return isolation::testing::test_isolation_options();
}

IsolationOptions hang_options() {
  return isolation::testing::test_isolation_options(milliseconds(500));
}

std::unique_ptr<Backend> start_fake(IsolationOptions options = quick_options()) {
  auto backend = start_isolated([] { return Result(make_fake_backend()); }, options);
  EXPECT_TRUE(backend.ok()) << backend.error().message;
  return std::move(backend.value());
}

// True when this process has no child left, running or unreaped, within a
// few seconds: a lost child is reaped by its connection's reader thread.
bool no_children() {
  const auto limit = Clock::now() + std::chrono::seconds(5);
  while (!(::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD)) {
    if (Clock::now() > limit) return false;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

class IsolateTest : public ::testing::Test {
 protected:
  void SetUp() override { restart(quick_options()); }

  void restart(const IsolationOptions& options) {
    program_.reset();
    backend_ = start_fake(options);
    CompileOutcome compiled = backend_->compile(fake_program());
    ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
    program_ = compiled.program;
  }

  DispatchOutcome run(FakeMode mode, ByteBuffer out = {1, 2, 3, 4}, uint32_t grid_x = 1) {
    return backend_->dispatch(*program_, fake_inputs(mode, std::move(out)), Grid{{grid_x, 1, 1}});
  }

  /// `runs` runs asked in `submissions`, out = {1, 2}, grid x 3.
  BatchOutcome run_batch(FakeMode mode, uint32_t runs, uint32_t submissions) {
    BatchOptions options;
    options.runs = runs;
    options.submissions = submissions;
    return backend_->dispatch_runs(*program_, fake_inputs(mode, {1, 2}), Grid{{3, 1, 1}}, options);
  }

  // The call after a failure starts a new child, compiles the program again
  // there, and gives correct bytes.
  void expect_recovered() {
    DispatchOutcome next = run(FakeMode::Echo, {1, 2, 3, 4}, 2);
    ASSERT_EQ(next.status, Status::Ok) << next.message;
    EXPECT_EQ(next.outputs.at("out"), (ByteBuffer{3, 4, 5, 6}));
  }

  std::unique_ptr<Backend> backend_;
  std::shared_ptr<const CompiledProgram> program_;
};

TEST_F(IsolateTest, RunsTheBackendInAnotherProcess) {
  EXPECT_EQ(backend_->name(), "fake");
  Capabilities caps = backend_->probe();
  EXPECT_EQ(caps.device_name, "fake device");
  EXPECT_NE(caps.driver, "pid " + std::to_string(::getpid()));
  EXPECT_EQ(caps.max_workgroup_size, (std::array<uint32_t, 3>{256, 128, 64}));
  EXPECT_EQ(caps.max_workgroup_count, (std::array<uint32_t, 3>{1000, 2000, 3000}));
  EXPECT_EQ(caps.max_dispatch_invocations, uint64_t{1} << 24);
  EXPECT_EQ(caps.max_workgroup_memory_bytes, 1u << 15);
  EXPECT_EQ(caps.preferred_workgroup_size, 32u);
}

TEST_F(IsolateTest, DispatchCarriesBuffersAndGrid) {
  DispatchOutcome out = run(FakeMode::Echo, {1, 2, 3, 255}, 3);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.at("out"), (ByteBuffer{4, 5, 6, 2}));
  EXPECT_EQ(out.outputs.size(), 1u);
}

TEST_F(IsolateTest, LargeBuffersCrossThePipesIntact) {
  ByteBuffer big(size_t{8} << 20);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7);
  DispatchOutcome out = run(FakeMode::Echo, big, 1);
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  ASSERT_EQ(out.outputs.at("out").size(), big.size());
  for (size_t i = 0; i < big.size(); i += 4099) {
    ASSERT_EQ(out.outputs.at("out")[i], static_cast<uint8_t>(i * 7 + 1)) << "byte " << i;
  }
}

TEST_F(IsolateTest, CompileStatusAndMessagePassThrough) {
  CompileOutcome rejected = backend_->compile(fake_program(3));
  EXPECT_EQ(rejected.status, Status::CompileError);
  EXPECT_EQ(rejected.message, isolation::testing::kFakeRejection);
  EXPECT_EQ(rejected.program, nullptr);
}

TEST_F(IsolateTest, SegfaultIsACrashNamingTheSignal) {
  DispatchOutcome out = run(FakeMode::Segfault);
  EXPECT_EQ(out.status, Status::Crashed);
  if (kSanitized) {
    EXPECT_NE(out.message.find("backend process crashed ("), std::string::npos) << out.message;
  } else {
    EXPECT_EQ(numbered(out.message),
              "backend process crashed (signal 11: SIGSEGV) during dispatch of program #N on "
              "grid 1x1x1");
  }
  EXPECT_TRUE(no_children());
  expect_recovered();
}

TEST_F(IsolateTest, AbortNamesSigabrt) {
  DispatchOutcome out = run(FakeMode::Abort);
  EXPECT_EQ(out.status, Status::Crashed);
  EXPECT_NE(out.message.find("crashed (signal 6: SIGABRT) during dispatch"), std::string::npos)
      << out.message;
  expect_recovered();
}

TEST_F(IsolateTest, ExitNamesTheExitStatus) {
  DispatchOutcome out = run(FakeMode::Exit3);
  EXPECT_EQ(out.status, Status::Crashed);
  EXPECT_NE(out.message.find("crashed (exit status 3) during dispatch"), std::string::npos)
      << out.message;
  expect_recovered();
}

TEST_F(IsolateTest, HangIsATimeoutAndTheChildIsKilled) {
  restart(hang_options());
  auto start = Clock::now();
  DispatchOutcome out = run(FakeMode::Hang);
  auto took = Clock::now() - start;
  EXPECT_EQ(out.status, Status::Timeout);
  // A dispatch may take two call timeouts: its submission and the copies.
  EXPECT_EQ(numbered(out.message),
            "backend process did not answer within 1000 ms during dispatch of program #N on grid "
            "1x1x1; killed it");
  EXPECT_GE(took, milliseconds(1000));
  // It comes back (a generous bound: a loaded machine slows fork and kill).
  EXPECT_LT(took, milliseconds(30000));
  EXPECT_TRUE(no_children());
  expect_recovered();
}

TEST_F(IsolateTest, GarbageOnThePipeIsBadOutput) {
  DispatchOutcome out = run(FakeMode::Garbage);
  EXPECT_EQ(out.status, Status::BadOutput);
  EXPECT_NE(numbered(out.message).find("malformed reply during dispatch of program #N"),
            std::string::npos)
      << out.message;
  EXPECT_NE(out.message.find("instead of the magic"), std::string::npos) << out.message;
  EXPECT_TRUE(no_children());
  expect_recovered();
}

TEST_F(IsolateTest, UnknownStatusCodeIsBadOutput) {
  DispatchOutcome out = run(FakeMode::BadStatus);
  EXPECT_EQ(out.status, Status::BadOutput);
  EXPECT_NE(out.message.find("unknown status code 42"), std::string::npos) << out.message;
  expect_recovered();
}

TEST(Isolate, ReplyOverTheSizeLimitIsBadOutput) {
  IsolationOptions options = quick_options();
  options.max_message_bytes = 1 << 20;
  auto backend = start_fake(options);
  auto program = backend->compile(fake_program()).program;
  ASSERT_NE(program, nullptr);
  DispatchOutcome out = backend->dispatch(*program, fake_inputs(FakeMode::Huge, {0}), Grid{});
  EXPECT_EQ(out.status, Status::BadOutput);
  EXPECT_NE(out.message.find("over the limit of 1048576"), std::string::npos) << out.message;
}

TEST_F(IsolateTest, ReleasedProgramsAreDroppedInTheChild) {
  auto second = backend_->compile(fake_program()).program;
  ASSERT_NE(second, nullptr);
  DispatchOutcome both = run(FakeMode::CountPrograms);
  ASSERT_EQ(both.status, Status::Ok) << both.message;
  EXPECT_EQ(both.outputs.at("out"), (ByteBuffer{2, 0, 0, 0}));
  second.reset();
  DispatchOutcome one = run(FakeMode::CountPrograms);
  ASSERT_EQ(one.status, Status::Ok) << one.message;
  EXPECT_EQ(one.outputs.at("out"), (ByteBuffer{1, 0, 0, 0}));
}

TEST_F(IsolateTest, ProgramOfAnotherIsolatedBackendRunsHere) {
  auto other = start_fake();
  auto foreign = other->compile(fake_program()).program;
  ASSERT_NE(foreign, nullptr);
  other.reset();  // Its child is gone; the program's text is enough.
  DispatchOutcome out = backend_->dispatch(*foreign, fake_inputs(FakeMode::Echo, {1}), Grid{});
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  EXPECT_EQ(out.outputs.at("out"), ByteBuffer{2});
}

TEST_F(IsolateTest, ProgramOfAnotherKindOfBackendIsRejected) {
  class Foreign final : public CompiledProgram {};
  DispatchOutcome out = backend_->dispatch(Foreign{}, fake_inputs(FakeMode::Echo, {0}), Grid{});
  EXPECT_EQ(out.status, Status::Error);
  EXPECT_NE(out.message.find("no isolated backend compiled"), std::string::npos) << out.message;
}

TEST_F(IsolateTest, DestroyingKillsAChildThatWillNotExit) {
  ASSERT_EQ(run(FakeMode::HangOnExit).status, Status::Ok);
  auto start = Clock::now();
  program_.reset();
  backend_.reset();
  // Not forever: the grace is 500 ms, then the kill (generous for a loaded machine).
  EXPECT_LT(Clock::now() - start, milliseconds(30000));
  EXPECT_TRUE(no_children());
}

TEST_F(IsolateTest, ConcurrencyQueriesAreTheChildBackends) {
  EXPECT_TRUE(backend_->compiles_concurrently());
  EXPECT_EQ(backend_->concurrent_dispatches(), isolation::testing::kFakeConcurrentDispatches);
}

TEST_F(IsolateTest, DispatchRunsRunsTheWholeBatchInTheChild) {
  BatchOutcome batch = run_batch(FakeMode::Echo, 5, 2);
  ASSERT_EQ(batch.status, Status::Ok) << batch.message;
  EXPECT_EQ(batch.first_outputs.at("out"), (ByteBuffer{4, 5}));
  EXPECT_EQ(batch.dispatches, 5u);  // The default dispatch_runs in the child: one per run.
  EXPECT_EQ(batch.differing_runs, 0u);
  EXPECT_TRUE(batch.differing.empty());
}

TEST_F(IsolateTest, ABatchLongerThanItsSubmissionsAllowIsBoundedPerSubmission) {
  // One submission asked for (a bound of 2 x 500 ms), 12 made (the default
  // dispatch_runs makes one per run) of 200 ms each: every one the child
  // reports moves the bound, so the batch finishes.
  restart(hang_options());
  BatchOutcome slow = run_batch(FakeMode::Slow, 12, 1);
  ASSERT_EQ(slow.status, Status::Ok) << slow.message;
  EXPECT_EQ(slow.first_outputs.at("out"), (ByteBuffer{4, 5}));
  EXPECT_EQ(slow.submissions, 12u);
  // A child that goes silent in a submission is still stopped.
  BatchOutcome hung = run_batch(FakeMode::Hang, 12, 1);
  EXPECT_EQ(hung.status, Status::Timeout) << hung.message;
  expect_recovered();
}

TEST_F(IsolateTest, CallsInFlightAtOnceRunAtOnceInTheChild) {
  DispatchOutcome other;
  std::thread peer([&] { other = run(FakeMode::Rendezvous); });
  DispatchOutcome mine = run(FakeMode::Rendezvous);
  peer.join();
  ASSERT_EQ(mine.status, Status::Ok) << mine.message;
  ASSERT_EQ(other.status, Status::Ok) << other.message;
  EXPECT_EQ(mine.outputs.at("out"), ByteBuffer{1});
  EXPECT_EQ(other.outputs.at("out"), ByteBuffer{1});
}

TEST_F(IsolateTest, ACrashFailsEveryCallInFlightAsCrashed) {
  std::atomic<bool> waiting{false};
  DispatchOutcome bystander;
  std::thread peer([&] {
    waiting = true;
    bystander = run(FakeMode::Rendezvous);
  });
  while (!waiting) std::this_thread::yield();
  std::this_thread::sleep_for(milliseconds(200));  // Lets the bystander reach the child.
  DispatchOutcome crashed = run(FakeMode::Segfault);
  peer.join();
  EXPECT_EQ(crashed.status, Status::Crashed);
  EXPECT_EQ(bystander.status, Status::Crashed);
  EXPECT_NE(bystander.message.find("other call(s) were in flight"), std::string::npos)
      << bystander.message;
  expect_recovered();
}

TEST_F(IsolateTest, ABackendTimeoutReplacesTheProcess) {
  DispatchOutcome before = run(FakeMode::Pid);
  ASSERT_EQ(before.status, Status::Ok) << before.message;
  DispatchOutcome hung = run(FakeMode::ReportTimeout);
  EXPECT_EQ(hung.status, Status::Timeout);
  EXPECT_EQ(hung.message, "the fake's submission did not finish");
  DispatchOutcome after = run(FakeMode::Pid);
  ASSERT_EQ(after.status, Status::Ok) << after.message;
  EXPECT_NE(after.outputs.at("out"), before.outputs.at("out"));
}

TEST_F(IsolateTest, ACompileThatNeverEndsIsATimeoutOfTheCompile) {
  restart(hang_options());
  CompileOutcome compiled =
      backend_->compile(fake_program(isolation::testing::kHangingCompileWidth));
  EXPECT_EQ(compiled.status, Status::Timeout);
  EXPECT_EQ(numbered(compiled.message),
            "backend process did not answer within 500 ms during compile of program #N; killed it");
  EXPECT_TRUE(no_children());
  expect_recovered();
}

TEST_F(IsolateTest, ADriverBuildThatNeverEndsIsNamedAsTheCompileNotTheKernel) {
  restart(hang_options());
  CompileOutcome compiled =
      backend_->compile(fake_program(isolation::testing::kHangingPrepareWidth));
  ASSERT_EQ(compiled.status, Status::Ok) << compiled.message;
  DispatchOutcome out =
      backend_->dispatch(*compiled.program, fake_inputs(FakeMode::Echo, {0}), Grid{});
  EXPECT_EQ(out.status, Status::Timeout);
  EXPECT_EQ(numbered(out.message),
            "backend process did not answer within 500 ms during the driver's compile of program "
            "#N (prepare: its pipeline or kernel); killed it");
  expect_recovered();
}

TEST(Isolate, FactoryErrorIsTheStartError) {
  auto failing = [] { return Result<std::unique_ptr<Backend>>(Error{"no device here"}); };
  auto started = start_isolated(failing, quick_options());
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().message, "the backend failed to start: no device here");

  auto backend = isolate(failing, quick_options());
  EXPECT_NE(backend->name().find("no device here"), std::string::npos) << backend->name();
  EXPECT_NE(backend->probe().unavailable.find("no device here"), std::string::npos);
  CompileOutcome compiled = backend->compile(fake_program());
  EXPECT_EQ(compiled.status, Status::Error);
  EXPECT_EQ(numbered(compiled.message), "the backend failed to start: no device here");
  EXPECT_TRUE(no_children());
}

TEST(Isolate, FactoryCrashIsTheStartError) {
  auto crashing = []() -> Result<std::unique_ptr<Backend>> { std::abort(); };
  auto started = start_isolated(crashing, quick_options());
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().message,
            "backend process crashed (signal 6: SIGABRT) during start-up (creating and probing "
            "the backend)");
}

TEST(Isolate, FactoryHangIsATimeout) {
  IsolationOptions options = hang_options();
  options.startup_timeout = milliseconds(300);
  auto hanging = []() -> Result<std::unique_ptr<Backend>> {
    for (;;) ::pause();
  };
  auto start = Clock::now();
  auto started = start_isolated(hanging, options);
  // It comes back (a generous bound: a loaded machine slows fork and kill).
  EXPECT_LT(Clock::now() - start, milliseconds(30000));
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error().message,
            "backend process did not answer within 300 ms during start-up (creating and probing "
            "the backend); killed it");
  EXPECT_TRUE(no_children());
}

TEST(Isolate, GivesUpAfterRepeatedFailedStarts) {
  IsolationOptions options = hang_options();
  options.startup_timeout = milliseconds(200);
  options.max_start_attempts = 2;
  // Each start counts itself in memory shared with the forked children.
  void* shared =
      ::mmap(nullptr, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(shared, MAP_FAILED);
  auto* starts = static_cast<volatile int*>(shared);
  *starts = 0;
  auto hanging = [starts]() -> Result<std::unique_ptr<Backend>> {
    *starts = *starts + 1;
    for (;;) ::pause();
  };
  auto backend = isolate(hanging, options);                             // First failed start.
  EXPECT_EQ(backend->compile(fake_program()).status, Status::Timeout);  // Second.
  EXPECT_EQ(*starts, 2);
  CompileOutcome given_up = backend->compile(fake_program());
  EXPECT_EQ(*starts, 2) << "a third start was tried";
  ::munmap(shared, sizeof(int));
  EXPECT_EQ(given_up.status, Status::Timeout);
  EXPECT_EQ(given_up.message,
            "gave up starting the backend process after 2 failed starts; the last: backend "
            "process did not answer within 200 ms during start-up (creating and probing the "
            "backend); killed it");
  EXPECT_TRUE(no_children());
}

// The fake's cache before any prepare(): each prepare() in a child adds a
// miss and a stored entry to that child's counts.
DriverCacheUse fake_cache() {
  return {"/fake/cache", "fake kernels", 5, 1, 2, 3};
}

std::unique_ptr<Backend> start_cached_fake() {
  auto backend = start_isolated([] { return Result(make_fake_backend_with_cache(fake_cache())); },
                                quick_options());
  EXPECT_TRUE(backend.ok()) << backend.error().message;
  return backend.ok() ? std::move(backend).value() : nullptr;
}

// Compiles a fake program on `backend` and runs it once (its first run
// prepares it in the child); the program, null when either failed.
std::shared_ptr<const CompiledProgram> compile_and_run(Backend& backend) {
  CompileOutcome compiled = backend.compile(fake_program());
  EXPECT_EQ(compiled.status, Status::Ok) << compiled.message;
  if (compiled.status != Status::Ok) return nullptr;
  DispatchOutcome ran =
      backend.dispatch(*compiled.program, fake_inputs(FakeMode::Echo, {1}), Grid{});
  EXPECT_EQ(ran.status, Status::Ok) << ran.message;
  return compiled.program;
}

TEST(IsolatedDriverCache, ReportsTheChildsCounts) {
  auto backend = start_cached_fake();
  ASSERT_NE(backend, nullptr);
  std::optional<DriverCacheUse> before = backend->driver_cache();
  EXPECT_EQ(cache_counts(before), "/fake/cache|fake kernels|5 1 2 3");
  // Two programs prepared in the child: counted there, not in this process.
  auto first = compile_and_run(*backend);
  auto second = compile_and_run(*backend);
  std::optional<DriverCacheUse> after = backend->driver_cache();
  EXPECT_EQ(cache_counts(after), "/fake/cache|fake kernels|5 3 2 5");
}

TEST(IsolatedDriverCache, ABackendWithoutACacheReportsNoneThroughIsolation) {
  auto cached = start_cached_fake();
  auto uncached = start_fake();
  ASSERT_NE(cached, nullptr);
  ASSERT_NE(uncached, nullptr);
  auto ran_cached = compile_and_run(*cached);
  auto ran_uncached = compile_and_run(*uncached);
  // The child is asked, and says when it keeps none.
  EXPECT_TRUE(cached->driver_cache().has_value());
  EXPECT_FALSE(uncached->driver_cache().has_value());
}

// The certifier asks once, at the end: the counts are the running child's.
// A child that crashed took its own with it, and none is reported while no
// child runs; its replacement counts from its own start.
TEST(IsolatedDriverCache, CountsAreTheRunningChildsAndGoWithACrashedOne) {
  auto backend = start_cached_fake();
  ASSERT_NE(backend, nullptr);
  auto program = compile_and_run(*backend);
  ASSERT_NE(program, nullptr);
  ASSERT_EQ(backend->driver_cache().value_or(DriverCacheUse{}).misses, 2u);
  DispatchOutcome crashed = backend->dispatch(*program, fake_inputs(FakeMode::Exit3, {1}), Grid{});
  ASSERT_EQ(crashed.status, Status::Crashed) << crashed.message;
  EXPECT_EQ(cache_counts(backend->driver_cache()), "none");
  // The next run starts a fresh child, which prepares the program again.
  DispatchOutcome again = backend->dispatch(*program, fake_inputs(FakeMode::Echo, {1}), Grid{});
  ASSERT_EQ(again.status, Status::Ok) << again.message;
  EXPECT_EQ(cache_counts(backend->driver_cache()), "/fake/cache|fake kernels|5 2 2 4");
}

}  // namespace
}  // namespace vyre
