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
#include "certify/run/fuzz_hunt.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kUsage =
    "vyre-certify fuzz --backend NAME [--device D] [--seconds N] [--seed S] [--out DIR]\n"
    "                    [--timeout-ms MS] [--in-process] [--quiet]\n"
    "  Runs random programs (L5's, from --seed on) and their metamorphic variants on the\n"
    "  backend against the reference until N seconds have passed. Each failure is reduced\n"
    "  and written once per distinct reduced form as DIR/<hash>/original.vyre, reduced.vyre\n"
    "  and README.txt (verdict, seed, replay command). vulkan and opencl run in a child\n"
    "  process, so a driver crash or hang is a finding (`crashed`, `timeout`), not the end;\n"
    "  --in-process keeps them in this process.\n"
    "  Defaults: --seconds 60, --seed 1, --out fuzz-findings/.\n"
    "  Exit: 0 no failure found, 1 failures found (listed), 2 bad usage or no usable backend.";

int usage_error(const std::string& message) {
  return cli::usage_error("vyre-certify fuzz", message, kUsage);
}

struct Args {
  certify::HuntOptions hunt;
  BackendChoice backend;
};

std::optional<std::string> parse_args(std::span<const std::string> args, Args& out) {
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
    constexpr std::string_view kValued[] = {"--backend", "--device", "--seconds",
                                            "--seed",    "--out",    "--timeout-ms"};
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
    } else if (flag == "--seed") {
      uint64_t seed = 0;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
      if (ec != std::errc() || end != value.data() + value.size()) {
        return "--seed takes an unsigned 64-bit number";
      }
      out.hunt.seed = seed;
    } else if (flag == "--out") {
      if (value.empty()) return "--out needs a folder, not an empty string";
      out.hunt.out_dir = value;
    }
  }
  if (auto problem = check_backend_choice(out.backend)) return problem;
  out.hunt.backend_name = out.backend.backend;
  return std::nullopt;
}

}  // namespace

std::string_view fuzz_usage() {
  return kUsage;
}

int cmd_fuzz(std::span<const std::string> args) {
  Args a;
  if (auto error = parse_args(args, a)) return usage_error(*error);
  if (auto error = check_writable(a.hunt.out_dir)) return usage_error(*error);
  auto opened = open_usable_backend(a.backend);
  if (!opened) {
    std::fprintf(stderr, "vyre-certify fuzz: %s\n", opened.error().message.c_str());
    return kExitUsage;
  }
  const Capabilities& caps = opened->device;
  // Which device is hunted, before anything can go wrong on it.
  std::printf("fuzz: %s on %s (driver %s, %s)\n", a.hunt.backend_name.c_str(),
              caps.device_name.c_str(), caps.driver.c_str(), caps.api.c_str());
  std::fflush(stdout);
  a.hunt.preferred_workgroup_size = caps.preferred_workgroup_size != 0
                                        ? caps.preferred_workgroup_size
                                        : a.hunt.preferred_workgroup_size;
  a.hunt.reopen_backend = [choice = a.backend] { return open_backend(choice); };
  const certify::HuntResult r = certify::hunt(*opened->backend, a.hunt);
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
  return r.findings.empty() ? kExitOk : kExitFail;
}

}  // namespace vyre::cli
