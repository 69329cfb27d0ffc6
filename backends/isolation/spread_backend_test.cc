// A backend spread over several children: as many as it asks for (within
// the bound), compiles in turn, each program run by the child that compiled
// it (another backend's spread over all), and a crash in one child leaving
// the others' processes alone.
#include "backends/isolation/spread_backend.h"

#include <gtest/gtest.h>

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <vector>

#include "backends/isolation/isolate.h"
#include "backends/isolation/testing/fake_backend.h"

namespace vyre {
namespace {

using isolation::testing::cache_counts;
using isolation::testing::fake_inputs;
using isolation::testing::fake_program;
using isolation::testing::FakeMode;
using isolation::testing::kFakeConcurrentDispatches;
using isolation::testing::kFakeUsefulProcesses;
using isolation::testing::make_fake_backend;
using isolation::testing::make_fake_backend_with_cache;
using isolation::testing::test_isolation_options;

std::unique_ptr<Backend> spread(uint32_t max_processes) {
  auto started = start_isolated_spread(make_fake_backend, test_isolation_options(), max_processes);
  EXPECT_TRUE(started.ok()) << started.error().message;
  return started.ok() ? std::move(started).value() : nullptr;
}

std::shared_ptr<const CompiledProgram> compiled(Backend& backend) {
  CompileOutcome c = backend.compile(fake_program());
  EXPECT_EQ(c.status, Status::Ok) << c.message;
  return c.program;
}

// The process id of the child that ran `program` (FakeMode::Pid), 0 when
// the dispatch failed.
uint32_t pid_of_run(Backend& backend, const CompiledProgram& program) {
  DispatchOutcome d = backend.dispatch(program, fake_inputs(FakeMode::Pid, ByteBuffer(4)), Grid{});
  if (d.status != Status::Ok) {
    ADD_FAILURE() << d.message;
    return 0;
  }
  uint32_t pid = 0;
  std::memcpy(&pid, d.outputs.at("out").data(), sizeof pid);
  return pid;
}

TEST(SpreadBackend, StartsAsManyChildrenAsTheBackendAsksWithinTheBound) {
  auto asked = spread(8);
  ASSERT_NE(asked, nullptr);
  EXPECT_EQ(asked->concurrent_dispatches(), kFakeUsefulProcesses * kFakeConcurrentDispatches);
  EXPECT_EQ(asked->name(), "fake");

  auto bounded = spread(2);
  ASSERT_NE(bounded, nullptr);
  EXPECT_EQ(bounded->concurrent_dispatches(), 2 * kFakeConcurrentDispatches);

  auto one = spread(1);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(dynamic_cast<isolation::SpreadBackend*>(one.get()), nullptr);
  EXPECT_EQ(one->concurrent_dispatches(), kFakeConcurrentDispatches);
}

// Children after the first that fail to start are left out, and the caller
// is told how many started and why the next did not. The factory runs in
// each child: the first leaves a marker file, later ones find it and fail.
TEST(SpreadBackend, AChildThatFailsToStartIsLeftOutAndSaidWhy) {
  char dir[] = "/tmp/vyre_spread_shortfall.XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string marker = std::string(dir) + "/started";
  std::string shortfall;
  auto started = start_isolated_spread(
      [marker]() -> Result<std::unique_ptr<Backend>> {
        if (std::FILE* f = std::fopen(marker.c_str(), "wx")) {
          std::fclose(f);
          return make_fake_backend();
        }
        return Error{"the driver refused a second process"};
      },
      test_isolation_options(), 8, &shortfall);
  std::remove(marker.c_str());
  ::rmdir(dir);
  ASSERT_TRUE(started.ok()) << started.error().message;
  EXPECT_EQ(dynamic_cast<isolation::SpreadBackend*>(started->get()), nullptr);
  EXPECT_EQ(shortfall, "1 of " + std::to_string(kFakeUsefulProcesses) +
                           " backend processes started; the next: the backend failed to start: "
                           "the driver refused a second process");
  // All started: nothing to say.
  std::string none = "unset";
  none.clear();
  auto all = start_isolated_spread(make_fake_backend, test_isolation_options(), 8, &none);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(none, "");
}

TEST(SpreadBackend, CompilesGoToTheChildrenInTurnAndEachProgramRunsWhereItWasCompiled) {
  auto backend = spread(8);
  ASSERT_NE(backend, nullptr);
  std::vector<std::shared_ptr<const CompiledProgram>> programs;
  for (uint32_t i = 0; i < 2 * kFakeUsefulProcesses; ++i) programs.push_back(compiled(*backend));
  std::vector<uint32_t> pids;
  for (const auto& p : programs) pids.push_back(pid_of_run(*backend, *p));
  EXPECT_EQ(std::set<uint32_t>(pids.begin(), pids.end()).size(), kFakeUsefulProcesses);
  for (uint32_t i = 0; i < kFakeUsefulProcesses; ++i) {
    EXPECT_EQ(pids[i], pids[i + kFakeUsefulProcesses]) << "program " << i;
  }
  // Again, and through a batch: the same child each time.
  for (size_t i = 0; i < programs.size(); ++i) {
    EXPECT_EQ(pid_of_run(*backend, *programs[i]), pids[i]) << "program " << i;
    BatchOptions two;
    two.runs = 2;
    BatchOutcome b = backend->dispatch_runs(*programs[i], fake_inputs(FakeMode::Pid, ByteBuffer(4)),
                                            Grid{}, two);
    ASSERT_EQ(b.status, Status::Ok) << b.message;
    uint32_t pid = 0;
    std::memcpy(&pid, b.first_outputs.at("out").data(), sizeof pid);
    EXPECT_EQ(pid, pids[i]) << "program " << i;
  }
}

TEST(SpreadBackend, ACrashInOneChildReplacesItAndLeavesTheOthersRunning) {
  auto backend = spread(2);
  ASSERT_NE(backend, nullptr);
  auto first = compiled(*backend);
  auto second = compiled(*backend);
  const uint32_t first_pid = pid_of_run(*backend, *first);
  const uint32_t second_pid = pid_of_run(*backend, *second);
  ASSERT_NE(first_pid, second_pid);

  DispatchOutcome crashed =
      backend->dispatch(*first, fake_inputs(FakeMode::Segfault, ByteBuffer(4)), Grid{});
  EXPECT_EQ(crashed.status, Status::Crashed) << crashed.message;
  EXPECT_EQ(pid_of_run(*backend, *second), second_pid);
  const uint32_t replaced = pid_of_run(*backend, *first);
  EXPECT_NE(replaced, first_pid);
  EXPECT_NE(replaced, 0u);
}

TEST(SpreadBackend, RunsProgramsAnotherBackendCompiledOnEveryChild) {
  auto other = spread(1);
  auto backend = spread(8);
  ASSERT_NE(other, nullptr);
  ASSERT_NE(backend, nullptr);
  std::set<uint32_t> pids;
  for (uint32_t i = 0; i < 2 * kFakeUsefulProcesses; ++i) {
    auto program = compiled(*other);
    const uint32_t pid = pid_of_run(*backend, *program);
    EXPECT_NE(pid, 0u);
    EXPECT_EQ(pid_of_run(*backend, *program), pid) << "program " << i << " moved";
    pids.insert(pid);
  }
  EXPECT_EQ(pids.size(), kFakeUsefulProcesses);
}

TEST(SpreadBackend, SumsTheChildrensDriverCacheCounts) {
  auto started = start_isolated_spread(
      [] {
        return Result(make_fake_backend_with_cache({"/fake/cache", "fake kernels", 5, 1, 2, 3}));
      },
      test_isolation_options(), 2);
  ASSERT_TRUE(started.ok()) << started.error().message;
  Backend& backend = **started;
  ASSERT_NE(dynamic_cast<isolation::SpreadBackend*>(&backend), nullptr);
  // One program on each child, each prepared there by its first run: a miss
  // and a stored entry in each child.
  auto first = compiled(backend);
  auto second = compiled(backend);
  ASSERT_NE(pid_of_run(backend, *first), pid_of_run(backend, *second));
  std::optional<DriverCacheUse> use = backend.driver_cache();
  EXPECT_EQ(cache_counts(use), "/fake/cache|fake kernels|10 4 4 8");
}

TEST(SpreadBackend, ReportsNoDriverCacheWhenNoChildKeepsOne) {
  auto cached = start_isolated_spread(
      [] {
        return Result(make_fake_backend_with_cache({"/fake/cache", "fake kernels", 0, 0, 0, 0}));
      },
      test_isolation_options(), 2);
  auto uncached = spread(2);
  ASSERT_TRUE(cached.ok()) << cached.error().message;
  ASSERT_NE(uncached, nullptr);
  EXPECT_TRUE((*cached)->driver_cache().has_value());
  EXPECT_FALSE(uncached->driver_cache().has_value());
}

}  // namespace
}  // namespace vyre
