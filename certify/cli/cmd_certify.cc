// `vyre-certify --backend NAME [options]`: the certification run.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <optional>
#include <string>

#include "backends/isolation/spread_backend.h"
#include "backends/registry/registry.h"
#include "certify/cli/backend_choice.h"
#include "certify/cli/certify_args.h"
#include "certify/cli/command.h"
#include "certify/cli/output_folder.h"
#include "certify/cli/run_interruption.h"
#include "certify/cli/shard_and_baseline.h"
#include "certify/gate/device_runs.h"
#include "certify/gate/device_shards.h"
#include "certify/report/baseline_comparison.h"
#include "certify/report/report_files.h"
#include "certify/report/report_signature.h"
#include "certify/run/certification_run.h"
#include "certify/suite/catalog.h"

namespace vyre::cli {
namespace {

/// The usage text: the options from the options table, the built-in
/// backends from the registry.
const std::string& usage_text() {
  static const std::string text =
      "vyre-certify --backend NAME\n" + certify::option_synopsis(100, 20) +
      "\n"
      "  NAME is a built-in backend (" +
      built_in_backend_list() + ") or a plugin path.\n" + certify::option_help(100) +
      "  Each option may be given once. SIGINT or SIGTERM stops starting cases; the running\n"
      "  ones finish and a partial report (\"complete\": false, with the cases not run) is\n"
      "  written, which `verify` rejects; the exit status is then 128 + the signal's number.\n"
      "  Exit: 0 certified (with --baseline: no new failure; one shard: no failing case),\n"
      "  1 not, 2 bad usage or no usable backend.";
  return text;
}

int certify_usage_error(const std::string& message) {
  return cli::usage_error("vyre-certify", message, usage_text());
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
  return usage_text();
}

/// The error of a selection with no case: the run fails closed.
std::string no_case_error(const CertifyArgs& a) {
  return "--filter `" + a.run.filter + "` matches no case at or below " +
         std::string(certify::name_of(a.run.level));
}

/// --dry-run: the resolved options and how many cases they select, after
/// every check the real run makes before its first case except opening the
/// backend and writing the output folder (a gate is checked where its
/// devices are not).
int dry_run(CertifyArgs& a) {
  certify::CatalogOptions catalog{.seed = a.run.seed, .up_to = a.run.level};
  const std::vector<certify::SuiteCase> cases = certify::build_catalog(catalog);
  std::vector<const certify::SuiteCase*> chosen = certify::select_cases(cases, a.run);
  if (chosen.empty()) return certify_usage_error(no_case_error(a));
  const auto shard = apply_shard_and_baseline(a.gate, VYRE_SUITE_VERSION, cases, a.run, chosen);
  if (!shard) return certify_usage_error(shard.error().message);
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
  std::printf("options:\n%s", certify::dry_run_listing(a.given).c_str());
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
int certify_on_devices(std::span<const std::string> args, const CertifyArgs& a) {
  const certify::DeviceUsable usable = [&](const std::string& selector) {
    BackendChoice one = a.backend;
    one.device = selector;
    return open_usable_backend(one).ok();
  };
  const bool takes_device = !names_plugin(a.run.backend) && backend_takes_device(a.run.backend);
  auto devices = certify::shard_devices(*a.device_list, a.run.backend, takes_device, usable);
  if (!devices) return certify_usage_error(devices.error().message);
  if (auto error = check_writable(a.run.out_dir)) return certify_usage_error(*error);
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
  CertifyArgs a;
  if (auto error = parse_certify_args(args, a)) return certify_usage_error(*error);
  if (a.dry_run) return dry_run(a);
  if (a.device_list) return certify_on_devices(args, a);
  a.backend.max_processes = kCertifyMaxProcesses;
  // A retry's fresh backend is opened exactly as this one.
  a.run.reopen_backend = [choice = a.backend] { return open_backend(choice); };

  // One clock from building the catalog (generating L4's graphs) to the
  // reports; building it and opening the backend (loading, a child process,
  // a first probe) are phases of their own. The catalog comes first: an
  // isolated backend's child is forked with its host-driven cases in memory
  // and runs each whole there (backends/hosted_work.h); opened first, its
  // child would be replaced at the first such case.
  const certify::RunClock clock;
  certify::RandomProgramTally random_tally;
  certify::CatalogOptions catalog{.seed = a.run.seed, .up_to = a.run.level};
  catalog.random_tally = &random_tally;
  const std::vector<certify::SuiteCase> cases = certify::build_catalog(catalog);
  std::vector<const certify::SuiteCase*> chosen = certify::select_cases(cases, a.run);
  const uint64_t catalog_us = clock.elapsed_us();
  if (chosen.empty()) {
    return certify_usage_error(no_case_error(a));
  }
  // The one probe of the run: a backend may start its device there (vulkan
  // creates its instance), and the run uses this answer throughout.
  auto opened = open_usable_backend(a.backend);
  if (!opened) {
    std::fprintf(stderr, "vyre-certify: %s\n", opened.error().message.c_str());
    return kExitUsage;
  }
  const Capabilities& caps = opened->device;
  const uint64_t open_us = clock.elapsed_us() - catalog_us;

  const auto shard = apply_shard_and_baseline(a.gate, VYRE_SUITE_VERSION, cases, a.run, chosen);
  if (!shard) return certify_usage_error(shard.error().message);
  if (auto error = prepare_out_dir(a.run.out_dir)) return certify_usage_error(*error);

  const auto* spread = dynamic_cast<const isolation::SpreadBackend*>(opened->backend.get());
  const std::string processes =
      spread != nullptr ? " in " + std::to_string(spread->processes()) + " backend processes" : "";
  std::fprintf(stderr, "vyre-certify: %zu cases on `%s` (%s)%s, level %s, %u runs each\n",
               chosen.size(), a.run.backend.c_str(), caps.device_name.c_str(), processes.c_str(),
               std::string(certify::name_of(a.run.level)).c_str(), a.run.runs);
  const RunInterruption interruption("a partial report (complete: false) is written");
  a.run.interrupted = &interruption.signal();
  certify::Report report =
      certify::run_certification(*opened->backend, caps, chosen, a.run, random_tally);
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
