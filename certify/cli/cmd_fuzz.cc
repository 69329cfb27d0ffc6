// `vyre-certify fuzz --backend NAME [options]`: hunts for backend bugs with
// L5's random programs until a time budget is spent (run/fuzz_hunt.h).
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "certify/cli/backend_choice.h"
#include "certify/cli/command.h"
#include "certify/cli/output_folder.h"
#include "certify/cli/run_interruption.h"
#include "certify/run/fuzz_hunt.h"
#include "spec/support/parallel_for.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kFuzzUsage =
    "vyre-certify fuzz --backend NAME [--device D] [--seconds N] [--programs N] [--seed S]\n"
    "                    [--out DIR] [--jobs N] [--timeout-ms MS] [--cache-dir DIR|--no-cache]\n"
    "                    [--in-process] [--quiet]\n"
    "  Runs random programs (L5's, from --seed on) and their metamorphic variants on the\n"
    "  backend against the reference until N seconds have passed, or N programs have run\n"
    "  (--programs: the seed's programs 0 to N-1, whatever the speed). Each failure is reduced\n"
    "  and written once per distinct reduced form as DIR/<hash>/original.vyre, reduced.vyre\n"
    "  and README.txt (verdict, seed, replay command). vulkan and opencl run in a child\n"
    "  process, so a driver crash or hang is a finding (`crashed`, `timeout`), not the end;\n"
    "  --in-process keeps them in this process.\n"
    "  --jobs N hunts with N workers (1 to 64), each on a backend of its own (in a child\n"
    "  process of its own, so its own driver), taking the seed's programs in turn from one\n"
    "  counter and sharing the findings. Default: for opencl in child processes one\n"
    "  worker per 2 cores, at most 8 (NVIDIA's OpenCL builds one kernel at a time per\n"
    "  process); otherwise 1 (one Vulkan hunt already keeps many cores busy).\n"
    "  Defaults: --seconds 60, --seed 1, --out fuzz-findings/.\n"
    "  SIGINT or SIGTERM ends the hunt early: the running cases finish, no other starts,\n"
    "  and what was found is listed; the exit status is then 128 + the signal's number.\n"
    "  Exit: 0 no failure found, 1 failures found (listed), 2 bad usage or no usable backend.";

int fuzz_usage_error(const std::string& message) {
  return cli::usage_error("vyre-certify fuzz", message, kFuzzUsage);
}

/// The most workers --jobs takes: each may hold a driver instance and a
/// device context of its own.
constexpr unsigned kMaxJobs = 64;
/// Without --jobs, opencl in a child process gets one worker per this many
/// host cores, at most kMaxDefaultJobs. Measured on the H100 host (16 cores,
/// NVIDIA 580, 45 s hunts): NVIDIA's OpenCL builds one kernel at a time per
/// process, so one worker ran 3.9 programs/s on about one core, 4 workers
/// 11.1 and 8 workers 21.2 (8.4 cores busy); a Vulkan hunt already keeps
/// about 10 cores busy in one process, and 4 workers ran 26.1 programs/s
/// against its 33.6, so every other backend keeps one; a 2-core machine
/// keeps one.
constexpr unsigned kCoresPerDefaultWorker = 2;
constexpr unsigned kMaxDefaultJobs = 8;

/// The workers of a hunt without --jobs: several only where they pay
/// (above), opencl in child processes (several in one process share its
/// driver) on a host with cores to spare.
unsigned default_jobs(const BackendChoice& choice) {
  if (choice.backend != "opencl" || !runs_in_child_process(choice)) return 1;
  return std::clamp(host_threads() / kCoresPerDefaultWorker, 1u, kMaxDefaultJobs);
}

/// `text` as a whole number of type T, if all of it is one that fits.
template <class T>
std::optional<T> whole_number(const std::string& text) {
  T value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

struct FuzzArgs {
  certify::HuntOptions hunt;
  BackendChoice backend;
  /// --jobs, when given.
  std::optional<unsigned> jobs;
};

std::optional<std::string> parse_fuzz_args(std::span<const std::string> args, FuzzArgs& out) {
  std::set<std::string> seen;
  out.hunt.out_dir = "fuzz-findings";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--quiet") {
      out.hunt.progress = false;
      continue;
    }
    if (std::optional<std::string> error; take_backend_switch(flag, out.backend, error)) {
      if (error) return error;
      continue;
    }
    constexpr std::string_view kValued[] = {"--backend",  "--device",     "--seconds",
                                            "--programs", "--seed",       "--out",
                                            "--jobs",     "--timeout-ms", "--cache-dir"};
    if (std::find(std::begin(kValued), std::end(kValued), flag) == std::end(kValued)) {
      return "unknown option `" + flag + "`";
    }
    if (i + 1 >= args.size()) return "option " + flag + " needs a value";
    const std::string& value = args[++i];
    if (!seen.insert(flag).second) return flag + " given twice; give it once";
    std::optional<std::string> error;
    if (take_backend_option(flag, value, out.backend, error)) {
      if (error) return error;
    } else if (flag == "--seconds") {
      double seconds = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
      if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(seconds) ||
          seconds <= 0 || seconds > 1e7) {
        return "--seconds takes a positive number of seconds, not `" + value + "`";
      }
      out.hunt.seconds = seconds;
    } else if (flag == "--programs") {
      const std::optional<uint64_t> programs = whole_number<uint64_t>(value);
      if (!programs || *programs == 0) {
        return "--programs takes a whole number of programs from 1 up, not `" + value + "`";
      }
      out.hunt.max_programs = *programs;
    } else if (flag == "--seed") {
      const std::optional<uint64_t> seed = whole_number<uint64_t>(value);
      if (!seed) return "--seed takes an unsigned 64-bit number";
      out.hunt.seed = *seed;
    } else if (flag == "--out") {
      if (value.empty()) return "--out needs a folder, not an empty string";
      out.hunt.out_dir = value;
    } else if (flag == "--jobs") {
      const std::optional<unsigned> jobs = whole_number<unsigned>(value);
      if (!jobs || *jobs == 0 || *jobs > kMaxJobs) {
        return "--jobs takes a whole number of workers from 1 to " + std::to_string(kMaxJobs) +
               ", not `" + value + "`";
      }
      out.jobs = *jobs;
    }
  }
  if (auto problem = check_backend_choice(out.backend)) return problem;
  out.hunt.backend_name = out.backend.backend;
  out.hunt.jobs = out.jobs.value_or(default_jobs(out.backend));
  return std::nullopt;
}

}  // namespace

std::string_view fuzz_usage() {
  return kFuzzUsage;
}

int cmd_fuzz(std::span<const std::string> args) {
  FuzzArgs a;
  if (auto error = parse_fuzz_args(args, a)) return fuzz_usage_error(*error);
  if (auto error = check_writable(a.hunt.out_dir)) return fuzz_usage_error(*error);
  auto opened = open_usable_backend(a.backend);
  if (!opened) {
    std::fprintf(stderr, "vyre-certify fuzz: %s\n", opened.error().message.c_str());
    return kExitUsage;
  }
  const Capabilities& caps = opened->device;
  // Which device is hunted, before anything can go wrong on it.
  std::printf("fuzz: %s on %s (driver %s, %s), %u worker%s\n", a.hunt.backend_name.c_str(),
              caps.device_name.c_str(), caps.driver.c_str(), caps.api.c_str(), a.hunt.jobs,
              a.hunt.jobs == 1 ? "" : "s");
  std::fflush(stdout);
  a.hunt.preferred_workgroup_size = caps.preferred_workgroup_size != 0
                                        ? caps.preferred_workgroup_size
                                        : a.hunt.preferred_workgroup_size;
  a.hunt.open_backend = [choice = a.backend] { return open_backend(choice); };
  const RunInterruption interruption("the findings so far are listed");
  a.hunt.interrupted = &interruption.signal();
  const Result<certify::HuntResult> hunted = certify::hunt(*opened->backend, a.hunt);
  if (!hunted) {
    std::fprintf(stderr, "vyre-certify fuzz: %s\n", hunted.error().message.c_str());
    return kExitUsage;
  }
  const certify::HuntResult& r = *hunted;
  std::printf(
      "%s: %llu programs (%llu discarded by the reference), %llu cases, %.1f programs/s, "
      "%llu failures, %zu distinct\n",
      a.hunt.backend_name.c_str(), static_cast<unsigned long long>(r.programs),
      static_cast<unsigned long long>(r.discarded), static_cast<unsigned long long>(r.cases),
      r.seconds > 0 ? static_cast<double>(r.programs) / r.seconds : 0.0,
      static_cast<unsigned long long>(r.failures), r.findings.size());
  for (const certify::HuntFinding& f : r.findings) {
    std::printf("FAIL %s %s (%s): %s\n", f.dir.c_str(), f.case_id.c_str(),
                std::string(certify::name_of(f.verdict)).c_str(), f.message.c_str());
  }
  if (const int signal = interruption.signal().load(); signal != 0) {
    std::printf("interrupted by %s after %.1f s\n", signal_name(signal), r.seconds);
    return 128 + signal;
  }
  return r.findings.empty() ? kExitOk : kExitFail;
}

}  // namespace vyre::cli
