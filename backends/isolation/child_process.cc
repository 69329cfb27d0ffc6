#include "backends/isolation/child_process.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/isolation/fork_safety.h"
#include "backends/isolation/frame_io.h"

namespace vyre::isolation {
namespace {

using Clock = std::chrono::steady_clock;

// A SIGKILLed child normally dies at once; one stuck in the kernel (a GPU
// driver call) may not. The parent waits this long, then leaves it to be
// reaped by a later spawn instead of blocking.
constexpr std::chrono::milliseconds kKillWait{5000};

constexpr int kPipeBytes = 1 << 20;
constexpr int kKeptBlockBytes = 256 << 20;

// Children killed but not yet reaped, retried without blocking on every spawn.
std::mutex& graveyard_mutex() {
  static std::mutex m;
  return m;
}
std::vector<pid_t>& graveyard() {
  static std::vector<pid_t> pids;
  return pids;
}

void reap_graveyard() {
  std::lock_guard lock(graveyard_mutex());
  std::erase_if(graveyard(), [](pid_t pid) { return ::waitpid(pid, nullptr, WNOHANG) != 0; });
}

// Polls for the child's end until `limit`; true and its status once reaped.
bool wait_until(pid_t pid, Clock::time_point limit, int* status) {
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    pid_t done = ::waitpid(pid, status, WNOHANG);
    if (done == pid) return true;
    if (done < 0 && errno != EINTR) {
      *status = -1;  // Already reaped elsewhere (ECHILD): nothing left to wait for.
      return true;
    }
    if (Clock::now() >= limit) return false;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// In the child: the pipes onto 3 and 4, stdout onto stderr, the rest closed.
// Only async-signal-safe calls; a failure ends the child at once.
[[noreturn]] void child_fail(const char* what) {
  ssize_t ignored = ::write(2, what, std::strlen(what));
  (void)ignored;
  ::_exit(125);
}

void arrange_child_descriptors(int request_read, int reply_write) {
  int request = ::fcntl(request_read, F_DUPFD, kChildReplyFd + 1);
  int reply = ::fcntl(reply_write, F_DUPFD, kChildReplyFd + 1);
  if (request < 0 || reply < 0) child_fail("isolation child: cannot move its pipes\n");
  if (::dup2(request, kChildRequestFd) < 0 || ::dup2(reply, kChildReplyFd) < 0 ||
      ::dup2(2, 1) < 0) {
    child_fail("isolation child: cannot arrange its descriptors\n");
  }
  int first = kChildReplyFd + 1;
  if (::close_range(static_cast<unsigned>(first), ~0U, 0) != 0) {
    long limit = ::sysconf(_SC_OPEN_MAX);
    for (int fd = first; fd < (limit > 0 ? limit : 1024); ++fd) ::close(fd);
  }
}

// In the child: every dispatch allocates buffers of the same large sizes.
// By default glibc maps each such block afresh and unmaps it when freed, so
// every dispatch pays a page fault per 4 KiB (measured 25x slower for 1 MiB
// outputs on a virtual machine). The child owns its heap: keep it.
void keep_heap_memory() {
  ::mallopt(M_MMAP_THRESHOLD, kKeptBlockBytes);
  ::mallopt(M_TRIM_THRESHOLD, kKeptBlockBytes);
}

}  // namespace

std::string describe_wait_status(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    int signal = WTERMSIG(wait_status);
    const char* abbrev = ::sigabbrev_np(signal);
    return "signal " + std::to_string(signal) + ": " +
           (abbrev != nullptr ? "SIG" + std::string(abbrev) : std::string("unknown"));
  }
  if (WIFEXITED(wait_status)) return "exit status " + std::to_string(WEXITSTATUS(wait_status));
  return "wait status " + std::to_string(wait_status);
}

Result<std::unique_ptr<ChildProcess>> ChildProcess::spawn(const std::function<int()>& body) {
  ignore_sigpipe();
  // Other threads (a hunt's workers, a pool's) allocate while this one forks.
  make_forks_safe_for_the_allocator();
  reap_graveyard();
  int requests[2];
  int replies[2];
  if (::pipe2(requests, O_CLOEXEC) != 0) {
    return Error{std::string("cannot create a pipe: ") + std::strerror(errno)};
  }
  if (::pipe2(replies, O_CLOEXEC) != 0) {
    int saved = errno;
    ::close(requests[0]);
    ::close(requests[1]);
    return Error{std::string("cannot create a pipe: ") + std::strerror(saved)};
  }
  // Each wake-up of a loaded machine costs scheduling latency; a 1 MiB pipe
  // (the unprivileged maximum; best effort) moves buffers in 16x fewer rounds.
  ::fcntl(requests[1], F_SETPIPE_SZ, kPipeBytes);
  ::fcntl(replies[1], F_SETPIPE_SZ, kPipeBytes);
  // Buffered output would otherwise be written twice, once by each process.
  std::fflush(nullptr);
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    int saved = errno;
    for (int fd : {requests[0], requests[1], replies[0], replies[1]}) ::close(fd);
    return Error{std::string("cannot fork the backend process: ") + std::strerror(saved)};
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(125);  // The parent died before prctl took hold.
    ::signal(SIGPIPE, SIG_DFL);
    // The parent owns the child's life (it kills it, and PDEATHSIG follows
    // the parent): a Ctrl-C sent to the whole process group must let an
    // interrupted certification finish its running cases, not crash them.
    ::signal(SIGINT, SIG_IGN);
    ::signal(SIGTERM, SIG_IGN);
    keep_heap_memory();
    arrange_child_descriptors(requests[0], replies[1]);
    ::_exit(body());
  }
  ::close(requests[0]);
  ::close(replies[1]);
  for (int fd : {requests[1], replies[0]}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, requests[1], replies[0]));
}

ChildProcess::ChildProcess(pid_t pid, int requests, int replies)
    : pid_(pid), requests_(requests), replies_(replies) {}

ChildProcess::~ChildProcess() {
  reap(std::chrono::milliseconds(2000));
}

void ChildProcess::close_requests() {
  close_fd(requests_);
}

void ChildProcess::close_pipes() {
  close_fd(requests_);
  close_fd(replies_);
}

std::string ChildProcess::reap(std::chrono::milliseconds grace) {
  if (!ended_.empty()) return ended_;
  close_pipes();
  int status = 0;
  bool reaped = wait_until(pid_, Clock::now() + grace, &status);
  bool killed = false;
  if (!reaped) {
    ::kill(pid_, SIGKILL);
    killed = true;
    reaped = wait_until(pid_, Clock::now() + kKillWait, &status);
  }
  if (!reaped) {
    std::lock_guard lock(graveyard_mutex());
    graveyard().push_back(pid_);
    ended_ = "killed, still exiting";
  } else if (status == -1) {
    ended_ = "already reaped";
  } else {
    ended_ = describe_wait_status(status);
    if (killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ended_ = "killed";
  }
  return ended_;
}

}  // namespace vyre::isolation
