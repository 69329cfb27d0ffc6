#include "certify/cli/run_interruption.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
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

void on_signal(int signal) {
  g_signal.store(signal);
  // Only async-signal-safe calls here.
  ssize_t ignored = ::write(STDERR_FILENO, g_notice, g_notice_size);
  (void)ignored;
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
  // SA_RESETHAND: a second signal takes the default action and ends the run.
  // SA_RESTART: reads and waits in progress resume instead of failing.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
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
