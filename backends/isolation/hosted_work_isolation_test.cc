// Hosted work through an isolated backend: the whole work runs in the child
// (its copy from the fork), gives what it gives in process, and a crash or
// hang during it fails that work only, with the right Status; the next call
// gets a fresh child. Work made after the child's fork gets a fresh child
// that holds it. The child runs testing/fake_backend.h.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "backends/hosted_work.h"
#include "backends/isolation/isolate.h"
#include "backends/isolation/testing/fake_backend.h"
#include "spec/ir/host_words.h"

namespace vyre {
namespace {

using isolation::testing::fake_inputs;
using isolation::testing::fake_program;
using isolation::testing::FakeMode;
using isolation::testing::make_fake_backend;
using std::chrono::milliseconds;

std::unique_ptr<Backend> start_hosting_fake(milliseconds call = milliseconds(20000)) {
  auto backend = start_isolated([] { return Result(make_fake_backend()); },
                                isolation::testing::test_isolation_options(call));
  EXPECT_TRUE(backend.ok()) << backend.error().message;
  return std::move(backend.value());
}

/// Work whose run makes `steps` dispatches of the fake program: each but
/// the last echoes (out += run's step count), the last acts out `last`; a
/// step may first sleep `pause` on the host. Its outputs are the last
/// dispatch's, plus "steps" and the process id the runs ran in.
std::shared_ptr<const HostedWork> fake_work(std::string name, uint32_t steps, FakeMode last,
                                            milliseconds pause = milliseconds(0)) {
  return std::make_shared<const HostedWork>(
      std::move(name), [=](Backend& backend) -> HostedPrepared {
        CompileOutcome compiled = backend.compile(fake_program());
        if (compiled.status != Status::Ok) return {compiled.status, compiled.message, {}};
        auto program = compiled.program;
        return {Status::Ok, "", [=, &backend]() -> HostedRun {
                  ByteBuffer out = {1, 2, 3, 4};
                  DispatchOutcome done;
                  for (uint32_t step = 0; step < steps; ++step) {
                    if (pause.count() > 0) std::this_thread::sleep_for(pause);
                    const FakeMode mode = step + 1 == steps ? last : FakeMode::Echo;
                    done = backend.dispatch(*program, fake_inputs(mode, out), Grid{{1, 1, 1}});
                    if (done.status != Status::Ok) return {done.status, done.message, {}};
                    out = done.outputs.at("out");
                  }
                  return {Status::Ok,
                          "",
                          {{"out", out},
                           {"steps", to_bytes({steps})},
                           {"pid", to_bytes({static_cast<uint32_t>(::getpid())})}}};
                }};
      });
}

uint32_t pid_of(const HostedRun& run) {
  return word_at(run.outputs.at("pid"), 0);
}

TEST(HostedWorkIsolation, RunsInTheChildAndGivesWhatItGivesInProcess) {
  auto work = fake_work("echo work", 20, FakeMode::Echo);
  std::unique_ptr<Backend> backend = start_hosting_fake();
  const HostedRunsOutcome isolated = backend->run_hosted(*work, {.runs = 5, .threads = 2});
  ASSERT_EQ(isolated.status, Status::Ok) << isolated.message;
  ASSERT_EQ(isolated.prepare_status, Status::Ok) << isolated.prepare_message;
  ASSERT_EQ(isolated.runs.size(), 5u);
  // 20 echoes of grid 1 add 20 to each byte.
  for (const std::optional<HostedRun>& run : isolated.runs) {
    ASSERT_TRUE(run);
    ASSERT_EQ(run->status, Status::Ok) << run->message;
    EXPECT_EQ(run->outputs.at("out"), (ByteBuffer{21, 22, 23, 24}));
    EXPECT_NE(pid_of(*run), static_cast<uint32_t>(::getpid()));
  }
  // Every run ran in the one child.
  EXPECT_EQ(pid_of(*isolated.runs[0]), pid_of(*isolated.runs[4]));
}

TEST(HostedWorkIsolation, EqualRunsCrossTheWireOnceAndComeBackWhole) {
  auto work = fake_work("big work", 1, FakeMode::Huge);
  std::unique_ptr<Backend> backend = start_hosting_fake();
  const HostedRunsOutcome out = backend->run_hosted(*work, {.runs = 8});
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  ASSERT_EQ(out.runs.size(), 8u);
  for (const std::optional<HostedRun>& run : out.runs) {
    ASSERT_TRUE(run);
    EXPECT_EQ(run->outputs.at("out"), out.runs[0]->outputs.at("out"));
    EXPECT_EQ(run->outputs.at("out").size(), size_t{2} << 20);
  }
}

TEST(HostedWorkIsolation, WorkMadeAfterTheForkGetsAChildThatHoldsIt) {
  std::unique_ptr<Backend> backend = start_hosting_fake();
  auto first = fake_work("made first", 1, FakeMode::Echo);
  const HostedRunsOutcome before = backend->run_hosted(*first, {.runs = 1});
  ASSERT_EQ(before.status, Status::Ok) << before.message;
  ASSERT_TRUE(before.runs[0]);
  // Another work made now: a fresh child is forked for it, once.
  auto second = fake_work("made later", 1, FakeMode::Echo);
  const HostedRunsOutcome later = backend->run_hosted(*second, {.runs = 1});
  ASSERT_EQ(later.status, Status::Ok) << later.message;
  ASSERT_TRUE(later.runs[0]);
  EXPECT_NE(pid_of(*later.runs[0]), pid_of(*before.runs[0]));
  const HostedRunsOutcome again = backend->run_hosted(*first, {.runs = 1});
  ASSERT_EQ(again.status, Status::Ok) << again.message;
  EXPECT_EQ(pid_of(*again.runs[0]), pid_of(*later.runs[0]));
}

TEST(HostedWorkIsolation, ACrashDuringTheWorkFailsItAsCrashedAndTheNextWorkRuns) {
  auto crashing = fake_work("crashing work", 3, FakeMode::Abort);
  auto fine = fake_work("fine work", 2, FakeMode::Echo);
  std::unique_ptr<Backend> backend = start_hosting_fake();
  const HostedRunsOutcome crashed = backend->run_hosted(*crashing, {.runs = 4});
  EXPECT_EQ(crashed.status, Status::Crashed);
  EXPECT_NE(crashed.message.find("backend process crashed (signal 6: SIGABRT) during the "
                                 "host-driven runs of `crashing work`"),
            std::string::npos)
      << crashed.message;
  const HostedRunsOutcome next = backend->run_hosted(*fine, {.runs = 2});
  ASSERT_EQ(next.status, Status::Ok) << next.message;
  ASSERT_TRUE(next.runs[1]);
  EXPECT_EQ(next.runs[1]->outputs.at("out"), (ByteBuffer{3, 4, 5, 6}));
}

TEST(HostedWorkIsolation, AHangingCallOfTheWorkIsATimeoutNamingIt) {
  auto hanging = fake_work("hanging work", 3, FakeMode::Hang);
  auto fine = fake_work("fine after a hang", 1, FakeMode::Echo);
  std::unique_ptr<Backend> backend = start_hosting_fake(milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  const HostedRunsOutcome hung = backend->run_hosted(*hanging, {.runs = 1});
  EXPECT_EQ(hung.status, Status::Timeout);
  // Each call of the work gets two call limits and the progress interval.
  EXPECT_NE(hung.message.find("did not answer within 700 ms during the host-driven runs of "
                              "`hanging work`"),
            std::string::npos)
      << hung.message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  const HostedRunsOutcome next = backend->run_hosted(*fine, {.runs = 1});
  ASSERT_EQ(next.status, Status::Ok) << next.message;
}

TEST(HostedWorkIsolation, WorkLongerThanOneCallLimitRunsWhileItMakesProgress) {
  // 40 steps of 100 ms on the host: 4 s in all, past the 2.1 s one call
  // may take, but no call of it takes long.
  auto slow = fake_work("slow work", 40, FakeMode::Echo, milliseconds(100));
  std::unique_ptr<Backend> backend = start_hosting_fake(milliseconds(1000));
  const HostedRunsOutcome out = backend->run_hosted(*slow, {.runs = 1});
  ASSERT_EQ(out.status, Status::Ok) << out.message;
  ASSERT_TRUE(out.runs[0]);
  EXPECT_EQ(out.runs[0]->status, Status::Ok) << out.runs[0]->message;
}

TEST(HostedWorkIsolation, ABackendTimeoutInTheWorkReplacesTheProcess) {
  auto reporting = fake_work("reports a timeout", 2, FakeMode::ReportTimeout);
  auto fine = fake_work("runs after", 1, FakeMode::Echo);
  std::unique_ptr<Backend> backend = start_hosting_fake();
  const HostedRunsOutcome first = backend->run_hosted(*fine, {.runs = 1});
  ASSERT_EQ(first.status, Status::Ok) << first.message;
  const HostedRunsOutcome timed_out = backend->run_hosted(*reporting, {.runs = 3});
  ASSERT_EQ(timed_out.status, Status::Ok) << timed_out.message;
  ASSERT_TRUE(timed_out.runs[0]);
  EXPECT_EQ(timed_out.runs[0]->status, Status::Timeout);
  EXPECT_FALSE(timed_out.runs[2]) << "a run was taken after a failed one";
  const HostedRunsOutcome after = backend->run_hosted(*fine, {.runs = 1});
  ASSERT_EQ(after.status, Status::Ok) << after.message;
  EXPECT_NE(pid_of(*after.runs[0]), pid_of(*first.runs[0]));
}

}  // namespace
}  // namespace vyre
