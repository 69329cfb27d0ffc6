// `vyre-certify --backend NAME [options]`: the certification run.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>

#include "certify/cli/backend_choice.h"
#include "certify/cli/command.h"
#include "certify/cli/output_folder.h"
#include "certify/cli/shard_and_baseline.h"
#include "certify/report/baseline_comparison.h"
#include "certify/report/report_files.h"
#include "certify/run/certification_run.h"
#include "certify/suite/catalog.h"

namespace vyre::cli {
namespace {

constexpr std::string_view kUsage =
    "vyre-certify --backend NAME [--device D] [--level L1..L5] [--runs N] [--seed S]\n"
    "                    [--filter GLOB] [--out DIR] [--timeout-ms MS] [--case-budget-s S]\n"
    "                    [--quiet] [--baseline REPORT.json]\n"
    "                    [--shard I/N [--shard-times REPORT.json]]\n"
    "  NAME is a built-in backend (reference, vulkan, opencl) or a plugin path\n"
    "  (./libmybackend.so), which runs in a child process so that a crash or hang fails\n"
    "  one case, not the run.\n"
    "  --timeout-ms bounds one compile and one submission of a built-in backend (default\n"
    "  10000) and one compile or dispatch call of a plugin (default 60000).\n"
    "  --case-budget-s bounds all the runs of one case (default 300; 0: no bound): a\n"
    "  backend that is slow but never hangs fails that case with `timeout`.\n"
    "  --device picks a vulkan or opencl device (an index or part of its name).\n"
    "  Each option may be given once. A reused --out keeps no old repro: the repro files\n"
    "  an earlier run wrote there are deleted first (other files are left alone).\n"
    "  Defaults: --level L5, --runs 100, --seed 1, --out reports/<backend>-<UTC time>/.\n"
    "  --baseline: the failing cases of an earlier report of the same backend and suite\n"
    "  version are known failures; the gate (exit code) then fails only on new failures,\n"
    "  while report.json's verdict stays that of the cases.\n"
    "  --shard I/N runs shard I (1..N) of the selection, balanced by the case times of\n"
    "  --shard-times (else --baseline; else one unit per case); `merge` joins the shards.\n"
    "  Exit: 0 certified (with --baseline: no new failure; one shard: no failing case),\n"
    "  1 not, 2 bad usage or no usable backend.";

struct Args {
  certify::CertifyOptions run;
  BackendChoice backend;
  ShardBaselineArgs gate;
};

int usage_error(const std::string& message) {
  return cli::usage_error("vyre-certify", message, kUsage);
}

template <typename T>
std::optional<T> parse_number(const std::string& text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string default_out_dir(const std::string& backend) {
  std::string name = std::filesystem::path(backend).filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  }
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  return "reports/" + name + "-" + stamp;
}

/// Parses the arguments; returns an error message on bad usage.
std::optional<std::string> parse_args(std::span<const std::string> args, Args& out) {
  std::set<std::string> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--quiet") {
      out.run.progress = false;
      continue;
    }
    constexpr std::string_view kValued[] = {"--backend", "--device",     "--level",
                                            "--runs",    "--seed",       "--filter",
                                            "--out",     "--timeout-ms", "--case-budget-s"};
    if (std::find(std::begin(kValued), std::end(kValued), flag) == std::end(kValued) &&
        std::find(std::begin(kShardBaselineFlags), std::end(kShardBaselineFlags), flag) ==
            std::end(kShardBaselineFlags)) {
      return "unknown option `" + flag + "`";
    }
    if (i + 1 >= args.size()) return "option " + flag + " needs a value";
    const std::string& value = args[++i];
    // Last-wins would certify something other than what was asked for.
    if (!seen.insert(flag).second) return flag + " given twice; give it once";
    std::optional<std::string> error;
    if (take_backend_option(flag, value, out.backend, error) ||
        take_shard_baseline_option(flag, value, out.gate, error)) {
      if (error) return error;
    } else if (flag == "--level") {
      auto level = certify::level_named(value);
      if (!level) return "unknown level `" + value + "`; levels are L1, L2, L3, L4, L5";
      out.run.level = *level;
    } else if (flag == "--runs") {
      auto runs = parse_number<uint32_t>(value);
      if (!runs || *runs == 0 || *runs > 100000) return "--runs takes a number from 1 to 100000";
      out.run.runs = *runs;
    } else if (flag == "--seed") {
      auto seed = parse_number<uint64_t>(value);
      if (!seed) return "--seed takes an unsigned 64-bit number";
      out.run.seed = *seed;
    } else if (flag == "--case-budget-s") {
      auto seconds = parse_number<uint32_t>(value);
      if (!seconds || *seconds > 86400)
        return "--case-budget-s takes a number of seconds from 0 to 86400";
      out.run.case_budget = std::chrono::seconds(*seconds);
    } else if (flag == "--filter") {
      out.run.filter = value;
    } else if (flag == "--out") {
      if (value.empty()) return "--out needs a folder, not an empty string";
      out.run.out_dir = value;
    }
  }
  if (auto problem = check_backend_choice(out.backend)) return problem;
  out.run.backend = out.backend.backend;
  if (out.run.out_dir.empty()) out.run.out_dir = default_out_dir(out.run.backend);
  return std::nullopt;
}

/// Fails early, before any case runs, when reports could not be written;
/// clears the repros an earlier run left there.
std::optional<std::string> prepare_out_dir(const std::string& dir) {
  if (auto problem = check_writable(dir)) return problem;
  if (auto cleared = certify::clear_old_repros(dir); !cleared) return cleared.error().message;
  return std::nullopt;
}

}  // namespace

std::string_view certify_usage() {
  return kUsage;
}

int cmd_certify(std::span<const std::string> args) {
  Args a;
  if (auto error = parse_args(args, a)) return usage_error(*error);

  // One clock from opening the backend (loading, a child process, a first
  // probe) to the reports; opening and building the catalog (generating
  // L4's graphs) are phases of their own.
  const certify::RunClock clock;
  auto backend = open_backend(a.backend);
  if (!backend) {
    std::fprintf(stderr, "vyre-certify: %s\n", backend.error().message.c_str());
    return kExitUsage;
  }
  // The one probe of the run: a backend may start its device there (vulkan
  // creates its instance), and the run uses this answer throughout.
  const Capabilities caps = (*backend)->probe();
  const uint64_t open_us = clock.elapsed_us();
  if (!caps.unavailable.empty()) {
    std::fprintf(stderr, "vyre-certify: backend `%s` is not usable: %s\n", a.run.backend.c_str(),
                 caps.unavailable.c_str());
    return kExitUsage;
  }

  certify::RandomProgramTally random_tally;
  certify::CatalogOptions catalog{.seed = a.run.seed, .up_to = a.run.level};
  catalog.random_tally = &random_tally;
  const std::vector<certify::SuiteCase> cases = certify::build_catalog(catalog);
  std::vector<const certify::SuiteCase*> chosen = certify::select_cases(cases, a.run);
  const uint64_t catalog_us = clock.elapsed_us() - open_us;
  if (chosen.empty()) {
    return usage_error("--filter `" + a.run.filter + "` matches no case at or below " +
                       std::string(certify::name_of(a.run.level)));
  }
  const auto shard = apply_shard_and_baseline(a.gate, VYRE_SUITE_VERSION, a.run, chosen);
  if (!shard) return usage_error(shard.error().message);
  if (auto error = prepare_out_dir(a.run.out_dir)) return usage_error(*error);

  std::fprintf(stderr, "vyre-certify: %zu cases on `%s` (%s), level %s, %u runs each\n",
               chosen.size(), a.run.backend.c_str(), caps.device_name.c_str(),
               std::string(certify::name_of(a.run.level)).c_str(), a.run.runs);
  certify::Report report = certify::run_certification(**backend, caps, chosen, a.run, random_tally);
  report.suite_version = VYRE_SUITE_VERSION;
  report.shard = *shard;
  report.phase_us["open"] = open_us;
  report.phase_us["catalog"] = catalog_us;
  // Only writing the reports, which must already hold this figure, lies
  // outside the wall time.
  report.wall_us = clock.elapsed_us();
  certify::record_other_time(report);
  if (auto written = certify::write_reports(report, a.run.out_dir); !written) {
    std::fprintf(stderr, "vyre-certify: %s\n", written.error().message.c_str());
    return kExitUsage;
  }
  for (const certify::LevelSummary& l : report.levels) {
    std::printf("%s  %-4s %3u cases, %3u passed, %3u failed, %3u not supported%s%s\n",
                l.certified ? "ok  " : "FAIL", std::string(certify::name_of(l.level)).c_str(),
                l.cases, l.passed, l.failed, l.not_supported, l.certified ? "" : ": ",
                l.reason.c_str());
  }
  std::printf("%s: %s at %s (%.1f s); reports in %s\n", a.run.backend.c_str(),
              report.certified ? "CERTIFIED" : "NOT CERTIFIED",
              std::string(certify::name_of(a.run.level)).c_str(),
              static_cast<double>(report.wall_us) / 1e6, a.run.out_dir.c_str());
  print_gate_summary(report);
  return certify::gate_passes(report) ? kExitOk : kExitFail;
}

}  // namespace vyre::cli
