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

#include "backends/registry/registry.h"
#include "certify/cli/backend_choice.h"
#include "certify/cli/command.h"
#include "certify/cli/output_folder.h"
#include "certify/cli/run_interruption.h"
#include "certify/cli/shard_and_baseline.h"
#include "certify/gate/device_runs.h"
#include "certify/gate/device_shards.h"
#include "certify/gate/gate_file.h"
#include "certify/report/baseline_comparison.h"
#include "certify/report/report_files.h"
#include "certify/report/report_signature.h"
#include "certify/run/certification_run.h"
#include "certify/suite/catalog.h"

namespace vyre::cli {
namespace {

/// The usage text; the built-in backends come from the registry.
const std::string kUsage =
    "vyre-certify --backend NAME [--device D] [--level L1..L5] [--runs N] [--seed S]\n"
    "                    [--filter GLOB] [--out DIR] [--timeout-ms MS] [--case-budget-s S]\n"
    "                    [--time-budget-s S] [--seed-policy fixed|date] [--gate FILE]\n"
    "                    [--baseline REPORT.json] [--shard I/N [--shard-times REPORT.json]]\n"
    "                    [--sign-key KEY.pem] [--inject-faults SPEC]\n"
    "                    [--cache-dir DIR | --no-cache] [--in-process] [--quiet] [--dry-run]\n"
    "  NAME is a built-in backend (" +
    built_in_backend_list() +
    ") or a plugin path\n"
    "  (./libmybackend.so). A plugin and the built-in device backends run in a child\n"
    "  process, so that a crash or hang of the driver fails one case (`crashed`,\n"
    "  `timeout`), not the run; --in-process keeps vulkan or opencl in this process (for a\n"
    "  debugger).\n"
    "  --timeout-ms bounds one compile and one submission of a built-in backend (default\n"
    "  10000) and one compile or dispatch call of a plugin (default 60000).\n"
    "  --case-budget-s bounds all the runs of one case (default 300; 0: no bound): a\n"
    "  backend that is slow but never hangs fails that case with `timeout`.\n"
    "  --device picks a vulkan, opencl or cuda device (an index or part of its name); --device\n"
    "  all or a list (0,1) runs one shard per device in parallel child processes and\n"
    "  merges their reports into --out (the merged verdict is the exit status).\n"
    "  --time-budget-s bounds the whole run: cases not started when it is spent fail\n"
    "  with `timeout`. A case ending `device lost`, `timeout` or `crashed` is retried once on a\n"
    "  freshly opened backend, and the report says so.\n"
    "  --seed-policy date derives the seed from the UTC date (YYYYMMDD) unless --seed\n"
    "  is given; the policy is recorded in report.json.\n"
    "  --gate FILE reads these options and [[known_failure]] tables from a TOML gate\n"
    "  file (certify/gate/README.md); options on the command line override it.\n"
    "  --sign-key KEY.pem signs report.json with that Ed25519 private key (`openssl genpkey\n"
    "  -algorithm ed25519`); `verify --public-key` checks it. The key is read before any\n"
    "  case runs: a bad key file exits 2.\n"
    "  --inject-faults SPEC injects faults into the backend at seeded dispatch calls\n"
    "  (device-lost@3,hang@5+,wrong-bytes%100,truncate@7,alloc-fail@9,crash@11,seed=S;\n"
    "  crash only for a plugin): a test of the run, and of a plugin, under faults\n"
    "  (backends/PLUGINS.md, \"Injecting faults\").\n"
    "  SIGINT or SIGTERM stops starting cases; the running ones finish and a partial\n"
    "  report (\"complete\": false, with the cases not run) is written, which `verify`\n"
    "  rejects; the exit status is then 128 + the signal's number.\n"
    "  --cache-dir keeps the vulkan and opencl drivers' compiled code between runs in DIR\n"
    "  (default $XDG_CACHE_HOME/vyre-certify, else ~/.cache/vyre-certify; at most 1 GiB,\n"
    "  least recently used first out); --no-cache keeps none. report.json's driver_cache\n"
    "  says how many compiles the cache served.\n"
    "  --dry-run checks the options, the selection, the shard and the baseline as the run\n"
    "  would (exit 2 where it would), prints them and runs nothing; it opens no backend.\n"
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
  /// --device all or a comma list: the run is split over these devices.
  std::optional<std::string> device_list;
  /// Whether the seed was given (--seed), not drawn by the policy.
  bool seed_given = false;
  /// --dry-run: resolve the options and the selection, run nothing.
  bool dry_run = false;
  /// --sign-key: the key's path and the key, read before any case runs.
  std::string sign_key_path;
  std::optional<certify::Ed25519Key> sign_key;
};

constexpr std::string_view kValued[] = {
    "--backend",     "--device", "--level",      "--runs",          "--seed",
    "--filter",      "--out",    "--timeout-ms", "--case-budget-s", "--time-budget-s",
    "--seed-policy", "--gate",   "--sign-key",   "--inject-faults", "--cache-dir"};

/// The command line as (flag, value) pairs, with the gate file's options
/// first for every flag the command line does not give; the gate's known
/// failures go to `out`. An error message on bad usage or a bad gate file.
std::optional<std::string> collect_options(std::span<const std::string> args,
                                           std::vector<certify::GateOption>& options, Args& out) {
  std::set<std::string> seen;
  std::optional<std::string> gate_path;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag == "--quiet") {
      out.run.progress = false;
      continue;
    }
    if (flag == "--dry-run") {
      out.dry_run = true;
      continue;
    }
    if (flag == "--no-cache") {
      out.backend.no_cache = true;
      continue;
    }
    std::optional<std::string> error;
    if (take_backend_switch(flag, out.backend, error)) {
      if (error) return error;
      continue;
    }
    if (std::find(std::begin(kValued), std::end(kValued), flag) == std::end(kValued) &&
        std::find(std::begin(kShardBaselineFlags), std::end(kShardBaselineFlags), flag) ==
            std::end(kShardBaselineFlags)) {
      return "unknown option `" + flag + "`";
    }
    if (i + 1 >= args.size()) return "option " + flag + " needs a value";
    // Last-wins would certify something other than what was asked for.
    if (!seen.insert(flag).second) return flag + " given twice; give it once";
    if (flag == "--gate") {
      gate_path = args[++i];
      continue;
    }
    options.push_back({flag, args[++i]});
  }
  if (!gate_path) return std::nullopt;
  auto gate = certify::load_gate_file(*gate_path);
  if (!gate) return gate.error().message;
  // The seed and its policy are one choice: either on the command line
  // overrides both of the gate's.
  const bool seed_on_command_line = seen.count("--seed") || seen.count("--seed-policy");
  std::vector<certify::GateOption> from_gate;
  for (certify::GateOption& o : certify::gate_options(*gate)) {
    const bool seed_option = o.flag == "--seed" || o.flag == "--seed-policy";
    if (seen.count(o.flag) || (seed_option && seed_on_command_line)) continue;
    from_gate.push_back(std::move(o));
  }
  options.insert(options.begin(), from_gate.begin(), from_gate.end());
  out.run.known_failures = std::move(gate->known_failures);
  if (!out.run.known_failures.empty()) out.run.known_failures_source = *gate_path;
  return std::nullopt;
}

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
  std::vector<certify::GateOption> options;
  if (auto problem = collect_options(args, options, out)) return problem;
  for (const auto& [flag, value] : options) {
    std::optional<std::string> error;
    if (flag == "--device" && certify::names_several_devices(value)) {
      out.device_list = value;
    } else if (take_backend_option(flag, value, out.backend, error) ||
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
      out.seed_given = true;
    } else if (flag == "--seed-policy") {
      auto policy = certify::seed_policy_named(value);
      if (!policy) return "--seed-policy takes `fixed` or `date`";
      out.run.seed_policy = *policy;
    } else if (flag == "--case-budget-s") {
      auto seconds = parse_number<uint32_t>(value);
      if (!seconds || *seconds > 86400)
        return "--case-budget-s takes a number of seconds from 0 to 86400";
      out.run.case_budget = std::chrono::seconds(*seconds);
    } else if (flag == "--time-budget-s") {
      auto seconds = parse_number<uint32_t>(value);
      if (!seconds || *seconds == 0 || *seconds > 604800)
        return "--time-budget-s takes a number of seconds from 1 to 604800";
      out.run.time_budget = std::chrono::seconds(*seconds);
    } else if (flag == "--filter") {
      out.run.filter = value;
    } else if (flag == "--out") {
      if (value.empty()) return "--out needs a folder, not an empty string";
      out.run.out_dir = value;
    } else if (flag == "--sign-key") {
      auto key = certify::Ed25519Key::load_private(value);
      if (!key) return "--sign-key " + key.error().message;
      out.sign_key_path = value;
      out.sign_key = std::move(*key);
    }
  }
  if (!out.run.seed_policy) out.run.seed_policy = certify::SeedPolicyKind::Fixed;
  // A date-seeded run draws the night's seed, unless its shards were handed
  // the one their parent drew.
  if (*out.run.seed_policy == certify::SeedPolicyKind::Date && !out.seed_given) {
    out.run.seed = certify::seed_of_utc_date(std::time(nullptr));
  }
  if (out.device_list &&
      certify::all_is_one_device(*out.device_list, !names_plugin(out.backend.backend) &&
                                                       backend_takes_device(out.backend.backend))) {
    out.device_list.reset();
  }
  if (auto problem = check_backend_choice(out.backend)) return problem;
  if (out.backend.no_cache && out.backend.cache_dir) {
    return "--cache-dir and --no-cache contradict each other; give one";
  }
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

/// The error of a selection with no case: the run fails closed.
std::string no_case_error(const Args& a) {
  return "--filter `" + a.run.filter + "` matches no case at or below " +
         std::string(certify::name_of(a.run.level));
}

/// --dry-run: the resolved options and how many cases they select, after
/// every check the real run makes before its first case except opening the
/// backend and writing the output folder (a gate is checked where its
/// devices are not).
int dry_run(Args& a) {
  certify::CatalogOptions catalog{.seed = a.run.seed, .up_to = a.run.level};
  const std::vector<certify::SuiteCase> cases = certify::build_catalog(catalog);
  std::vector<const certify::SuiteCase*> chosen = certify::select_cases(cases, a.run);
  if (chosen.empty()) return usage_error(no_case_error(a));
  const auto shard = apply_shard_and_baseline(a.gate, VYRE_SUITE_VERSION, cases, a.run, chosen);
  if (!shard) return usage_error(shard.error().message);
  std::string split;
  if (*shard) {
    split = " (shard " + std::to_string((*shard)->index) + "/" + std::to_string((*shard)->count) +
            " of " + std::to_string((*shard)->selected) + " selected, balanced by " +
            (!a.gate.shard_times.empty() ? a.gate.shard_times
             : !a.gate.baseline.empty()  ? a.gate.baseline
                                         : std::string("one unit per case")) +
            ")";
  }
  const std::string baseline = a.gate.baseline.empty() ? "" : ", baseline " + a.gate.baseline;
  std::printf(
      "dry run: %zu cases%s on `%s`%s%s, level %s, %u runs each, seed %llu (policy %s), "
      "%zu known failures%s, time budget %llds, reports in %s; nothing ran\n",
      chosen.size(), split.c_str(), a.run.backend.c_str(), a.device_list ? " devices " : "",
      a.device_list ? a.device_list->c_str() : "",
      std::string(certify::name_of(a.run.level)).c_str(), a.run.runs,
      static_cast<unsigned long long>(a.run.seed),
      std::string(certify::name_of(*a.run.seed_policy)).c_str(), a.run.known_failures.size(),
      baseline.c_str(), static_cast<long long>(a.run.time_budget.count()), a.run.out_dir.c_str());
  return kExitOk;
}

/// `--device all|LIST`: one shard per device in child processes, merged.
int certify_on_devices(std::span<const std::string> args, const Args& a) {
  const certify::DeviceUsable usable = [&](const std::string& selector) {
    BackendChoice one = a.backend;
    one.device = selector;
    auto backend = open_backend(one);
    return backend && (*backend)->probe().unavailable.empty();
  };
  const bool takes_device = !names_plugin(a.run.backend) && backend_takes_device(a.run.backend);
  auto devices = certify::shard_devices(*a.device_list, a.run.backend, takes_device, usable);
  if (!devices) return usage_error(devices.error().message);
  if (auto error = check_writable(a.run.out_dir)) return usage_error(*error);
  certify::ShardPlan plan;
  plan.self = certify::self_executable();
  plan.inherited = certify::inherited_arguments(args);
  plan.seed = a.run.seed;
  plan.seed_policy = std::string(certify::name_of(*a.run.seed_policy));
  plan.out = a.run.out_dir;
  plan.sign_key = a.sign_key_path;
  return certify::run_device_shards(plan, *devices);
}

int cmd_certify(std::span<const std::string> args) {
  Args a;
  if (auto error = parse_args(args, a)) return usage_error(*error);
  if (a.dry_run) return dry_run(a);
  if (a.device_list) return certify_on_devices(args, a);
  // A retry's fresh backend is opened exactly as this one.
  a.run.reopen_backend = [choice = a.backend] { return open_backend(choice); };

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
    return usage_error(no_case_error(a));
  }
  const auto shard = apply_shard_and_baseline(a.gate, VYRE_SUITE_VERSION, cases, a.run, chosen);
  if (!shard) return usage_error(shard.error().message);
  if (auto error = prepare_out_dir(a.run.out_dir)) return usage_error(*error);

  std::fprintf(stderr, "vyre-certify: %zu cases on `%s` (%s), level %s, %u runs each\n",
               chosen.size(), a.run.backend.c_str(), caps.device_name.c_str(),
               std::string(certify::name_of(a.run.level)).c_str(), a.run.runs);
  const RunInterruption interruption;
  a.run.interrupted = &interruption.signal();
  certify::Report report = certify::run_certification(**backend, caps, chosen, a.run, random_tally);
  report.suite_version = VYRE_SUITE_VERSION;
  report.shard = *shard;
  report.phase_us["open"] = open_us;
  report.phase_us["catalog"] = catalog_us;
  // Only writing the reports, which must already hold this figure, lies
  // outside the wall time.
  report.wall_us = clock.elapsed_us();
  certify::record_other_time(report);
  if (auto written =
          certify::write_reports(report, a.run.out_dir, a.sign_key ? &*a.sign_key : nullptr);
      !written) {
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
  if (const int signal = interruption.signal().load(); signal != 0) {
    std::printf("interrupted by %s: %zu case(s) not run; the report is incomplete\n",
                signal_name(signal), report.not_run ? report.not_run->size() : size_t{0});
    return 128 + signal;
  }
  return certify::gate_passes(report) ? kExitOk : kExitFail;
}

}  // namespace vyre::cli
