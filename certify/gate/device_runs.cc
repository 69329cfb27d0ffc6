#include "certify/gate/device_runs.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace vyre::certify {
namespace {

/// vyre-certify's exit status for bad usage: what the run gives when a
/// child could not start, ended by a signal, or left no verdict.
constexpr int kNoVerdict = 2;

/// Starts `argv`; the child's pid, or -1 (with a message on stderr).
pid_t start(const std::vector<std::string>& argv) {
  std::vector<char*> c_argv;
  for (const std::string& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  pid_t pid = -1;
  if (int err = posix_spawn(&pid, argv[0].c_str(), nullptr, nullptr, c_argv.data(), environ);
      err != 0) {
    std::fprintf(stderr, "vyre-certify: cannot start %s: %s\n", argv[0].c_str(), strerror(err));
    return -1;
  }
  return pid;
}

/// The exit status of `pid`; kNoVerdict if it ended by a signal.
int wait_for(pid_t pid, const std::string& what) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return kNoVerdict;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::fprintf(stderr, "vyre-certify: %s ended by signal %d\n", what.c_str(), WTERMSIG(status));
  return kNoVerdict;
}

std::string joined(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) line += (line.empty() ? "" : " ") + a;
  return line;
}

}  // namespace

std::string self_executable() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("vyre-certify") : self.string();
}

int run_device_shards(const ShardPlan& plan, const std::vector<std::string>& devices) {
  const size_t count = devices.size();
  std::vector<pid_t> children;
  bool all_started = true;
  for (size_t i = 0; i < count; ++i) {
    const std::vector<std::string> argv = shard_command(plan, devices[i], i + 1, count);
    std::fprintf(stderr, "vyre-certify: shard %zu/%zu: %s\n", i + 1, count, joined(argv).c_str());
    const pid_t pid = start(argv);
    if (pid < 0) all_started = false;
    children.push_back(pid);
  }
  // Every started child is waited for, even after a failure, so none is left behind.
  bool all_reported = all_started;
  for (size_t i = 0; i < count; ++i) {
    if (children[i] < 0) continue;
    const int status = wait_for(children[i], "shard " + std::to_string(i + 1));
    // 0 certified, 1 not certified: either way the shard wrote its report.
    if (status != 0 && status != 1) {
      std::fprintf(stderr, "vyre-certify: shard %zu/%zu exited %d without a verdict\n", i + 1,
                   count, status);
      all_reported = false;
    }
  }
  if (!all_reported) return kNoVerdict;
  const std::vector<std::string> merge = merge_command(plan, count);
  std::fprintf(stderr, "vyre-certify: %s\n", joined(merge).c_str());
  const pid_t merger = start(merge);
  if (merger < 0) return kNoVerdict;
  return wait_for(merger, "merge");
}

}  // namespace vyre::certify
