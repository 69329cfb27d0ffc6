// Forking, the child's descriptors, describing how a child ended, and
// reaping without blocking forever.
#include "backends/isolation/child_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "backends/isolation/frame_io.h"

namespace vyre::isolation {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Wait statuses as Linux encodes them: signal number in the low 7 bits, or
// the exit code shifted left by 8.
TEST(DescribeWaitStatus, NamesSignalsAndExitCodes) {
  struct Row {
    int wait_status;
    const char* text;
  };
  const Row rows[] = {
      {11, "signal 11: SIGSEGV"}, {6, "signal 6: SIGABRT"},  {9, "signal 9: SIGKILL"},
      {7, "signal 7: SIGBUS"},    {0x0300, "exit status 3"}, {0, "exit status 0"},
  };
  for (const Row& row : rows) EXPECT_EQ(describe_wait_status(row.wait_status), row.text);
}

// Checked inside the child; each failed check has its own exit code.
int check_child_descriptors() {
  if (::fcntl(kChildRequestFd, F_GETFD) < 0) return 10;
  if (::fcntl(kChildReplyFd, F_GETFD) < 0) return 11;
  for (int fd = kChildReplyFd + 1; fd < 256; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0) return 12;
  }
  struct stat out {};
  struct stat err {};
  if (::fstat(1, &out) != 0 || ::fstat(2, &err) != 0) return 13;
  if (out.st_dev != err.st_dev || out.st_ino != err.st_ino) return 14;
  return 0;
}

TEST(ChildProcess, ChildHasItsPipesStdioAndNothingElse) {
  int extra = ::open("/dev/null", O_RDONLY);  // Must not leak into the child.
  auto child = ChildProcess::spawn(check_child_descriptors);
  ::close(extra);
  ASSERT_TRUE(child.ok()) << child.error().message;
  EXPECT_EQ((*child)->reap(milliseconds(5000)), "exit status 0");
}

int echo_reversed() {
  auto request = read_frame(kChildRequestFd, std::nullopt, 1024);
  if (!std::holds_alternative<Frame>(request)) return 20;
  Frame reply = std::get<Frame>(request);
  std::reverse(reply.payload.begin(), reply.payload.end());
  return write_frame(kChildReplyFd, reply, std::nullopt) ? 21 : 0;
}

TEST(ChildProcess, PipesCarryFramesBothWays) {
  auto child = ChildProcess::spawn(echo_reversed);
  ASSERT_TRUE(child.ok());
  ChildProcess& process = **child;
  ASSERT_FALSE(
      write_frame(process.requests(), Frame{4, {1, 2, 3}}, deadline_in(milliseconds(2000))));
  auto reply = read_frame(process.replies(), deadline_in(milliseconds(2000)), 1024);
  ASSERT_TRUE(std::holds_alternative<Frame>(reply));
  EXPECT_EQ(std::get<Frame>(reply).payload, (std::vector<uint8_t>{3, 2, 1}));
  EXPECT_EQ(process.reap(milliseconds(5000)), "exit status 0");
}

int exit_7_at_end_of_input() {
  char byte;
  while (::read(kChildRequestFd, &byte, 1) > 0) {
  }
  return 7;
}

TEST(ChildProcess, ReapLetsAChildSeeEndOfInputAndExit) {
  auto child = ChildProcess::spawn(exit_7_at_end_of_input);
  ASSERT_TRUE(child.ok());
  EXPECT_EQ((*child)->reap(milliseconds(5000)), "exit status 7");
  EXPECT_EQ((*child)->reap(milliseconds(5000)), "exit status 7");  // Idempotent.
}

int sleep_forever() {
  for (;;) ::pause();
}

TEST(ChildProcess, KillNowEndsAHungChildAndReapsIt) {
  auto child = ChildProcess::spawn(sleep_forever);
  ASSERT_TRUE(child.ok());
  pid_t pid = (*child)->pid();
  auto start = Clock::now();
  EXPECT_EQ((*child)->kill_now(), "killed");
  // Not forever (a generous bound: a loaded machine slows kill and reap).
  EXPECT_LT(Clock::now() - start, milliseconds(30000));
  EXPECT_EQ(::waitpid(pid, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(ChildProcess, DestructorNeverWaitsPastItsGrace) {
  auto start = Clock::now();
  {
    auto child = ChildProcess::spawn(sleep_forever);
    ASSERT_TRUE(child.ok());
  }
  EXPECT_LT(Clock::now() - start, milliseconds(30000));  // Not forever.
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
}

// In the child: allocations of every size class, small to mapped, and a
// thread, as a backend starting up makes them.
int allocate_and_start_a_thread() {
  for (size_t bytes = 16; bytes <= (size_t{8} << 20); bytes *= 4) {
    void* block = std::malloc(bytes);
    if (block == nullptr) return 30;
    std::memset(block, 1, bytes);
    std::free(block);
  }
  std::thread([] { std::vector<int> v(1000, 1); }).join();
  return 0;
}

// Threads that allocate blocks of every size and start threads until
// destroyed, as a hunt's workers do while a connection forks its child.
class AllocatingThreads {
 public:
  explicit AllocatingThreads(int count) {
    for (int t = 0; t < count; ++t) threads_.emplace_back([this, t] { churn(t); });
  }
  ~AllocatingThreads() {
    stop_ = true;
    for (std::thread& thread : threads_) thread.join();
  }

 private:
  void churn(int seed) {
    std::vector<std::vector<char>> held(8);
    for (size_t i = 0; !stop_.load(std::memory_order_relaxed); ++i) {
      held[i % held.size()].assign(size_t{1} << ((i * 7 + seed) % 24), 'x');
      if (i % 64 == 0) std::thread([] { std::vector<int> v(100); }).join();
    }
  }

  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

// A lock another thread held at the fork stays held in the child for ever:
// the allocator's must not be (see make_forks_safe_for_the_allocator).
TEST(ChildProcess, AChildForkedWhileOtherThreadsAllocateCanAllocate) {
  AllocatingThreads others(3);
  for (int i = 0; i < 60; ++i) {
    auto child = ChildProcess::spawn(allocate_and_start_a_thread);
    ASSERT_TRUE(child.ok()) << child.error().message;
    // The child's work takes milliseconds; a hung one is killed at the end
    // of this generous grace and ends "killed".
    ASSERT_EQ((*child)->reap(milliseconds(30000)), "exit status 0") << "child " << i;
  }
}

}  // namespace
}  // namespace vyre::isolation
