#include "certify/cli/run_interruption.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace vyre::cli {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");

struct sigaction g_previous_int;
struct sigaction g_previous_term;

// The notice the handler writes, composed before any signal can come.
char g_notice[512];
size_t g_notice_size = 0;

// A second signal within this time of the first is the same interruption:
// GNU timeout sends its signal to the run and then to the run's whole process
// group, so the run receives it twice in a row; taking that second copy as
// "stop at once" would lose the partial report of every run bounded by
// `timeout` (as CI steps are). A person who signals again means it later.
constexpr int64_t kSameInterruptionNs = 2'000'000'000;
std::atomic<int64_t> g_first_signal_ns{0};
static_assert(std::atomic<int64_t>::is_always_lock_free, "set from a signal handler");

int64_t monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);  // async-signal-safe (POSIX)
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

// Only async-signal-safe calls here.
void on_signal(int signal) {
  const int64_t now = monotonic_ns();
  // Compare-exchanges, since a SIGTERM may interrupt the SIGINT handler: the
  // first signal's time is set before any handler can read it.
  int64_t unset_ns = 0;
  g_first_signal_ns.compare_exchange_strong(unset_ns, now);
  int none = 0;
  if (g_signal.compare_exchange_strong(none, signal)) {
    ssize_t ignored = ::write(STDERR_FILENO, g_notice, g_notice_size);
    (void)ignored;
    return;
  }
  if (now - g_first_signal_ns.load() < kSameInterruptionNs) return;
  // Signalled again: the signal's default action, at once.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

}  // namespace

RunInterruption::RunInterruption(std::string_view written) {
  const std::string notice =
      "\nvyre-certify: interrupted: the cases running finish, no other starts, and " +
      std::string(written) + "; signal again to stop at once\n";
  g_notice_size = std::min(notice.size(), sizeof g_notice);
  std::memcpy(g_notice, notice.data(), g_notice_size);
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  // SA_RESTART: reads and waits in progress resume instead of failing.
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &g_previous_int);
  ::sigaction(SIGTERM, &action, &g_previous_term);
}

RunInterruption::~RunInterruption() {
  ::sigaction(SIGINT, &g_previous_int, nullptr);
  ::sigaction(SIGTERM, &g_previous_term, nullptr);
}

const std::atomic<int>& RunInterruption::signal() const {
  return g_signal;
}

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

}  // namespace vyre::cli
