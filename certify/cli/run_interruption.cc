#include "certify/cli/run_interruption.h"

#include <signal.h>
#include <unistd.h>

#include <cstring>

namespace vyre::cli {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");

struct sigaction g_previous_int;
struct sigaction g_previous_term;

constexpr char kNotice[] =
    "\nvyre-certify: interrupted: the cases running finish, no other starts, and a partial "
    "report (complete: false) is written; signal again to stop at once\n";

void on_signal(int signal) {
  g_signal.store(signal);
  // Only async-signal-safe calls here.
  ssize_t ignored = ::write(STDERR_FILENO, kNotice, sizeof kNotice - 1);
  (void)ignored;
}

}  // namespace

RunInterruption::RunInterruption() {
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
