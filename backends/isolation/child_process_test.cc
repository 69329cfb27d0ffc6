// Forking, the child's descriptors, describing how a child ended, and
// reaping without blocking forever.
#include "backends/isolation/child_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

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

}  // namespace
}  // namespace vyre::isolation
