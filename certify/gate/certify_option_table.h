// The options of `vyre-certify --backend NAME ...`, listed once: the
// command-line parser (certify/cli/certify_args.cc), the gate file reader
// (gate_file.cc), the usage text and the --dry-run listing all come from this
// table, so an option added here is parsed, read from a gate file, documented
// and shown the same way everywhere.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vyre::certify {

/// What an option's value is, which says how a gate file key reads it.
enum class OptionKind {
  /// No value: given or not (--quiet).
  Switch,
  /// A non-empty string (a name, a path, a glob).
  Text,
  /// A whole number in [low, high].
  Number,
  /// A level name, L1 .. L5.
  Level,
  /// `fixed` or `date`; the gate file's `seed` table, which also sets --seed.
  SeedPolicy,
  /// One device, `all` or a comma list; the gate file's `devices`.
  Devices,
  /// A value with a syntax of its own, checked by the command line's parser
  /// (a shard I/N, a fault plan); no gate file key.
  Spec,
};

/// One option of the certification run.
struct CertifyOption {
  /// The command-line spelling, `--runs`.
  std::string_view flag;
  /// The value's name in the usage text (`N`); empty for a switch.
  std::string_view value_name;
  OptionKind kind = OptionKind::Text;
  /// Range of a Number (inclusive).
  uint64_t low = 0;
  uint64_t high = 0;
  /// What a Number counts (`seconds`), for its error message; empty: nothing.
  std::string_view unit;
  /// The value used when it is not given, as the usage text and --dry-run
  /// show it; empty: none.
  std::string_view default_value;
  /// The gate file key that stands for it; empty: none.
  std::string_view gate_key;
  /// What it does, for the usage text.
  std::string_view help;
};

/// Every option, in the order the usage text and --dry-run list them. The
/// gate file keys come in this order too (its error messages list them so).
inline constexpr std::array<CertifyOption, 22> kCertifyOptions = {{
    {"--backend", "NAME", OptionKind::Text, 0, 0, "", "", "backend",
     "the backend: a built-in one or a plugin's path (./libmybackend.so). A plugin and the "
     "built-in device backends run in a child process, so that a crash or hang of the driver "
     "fails one case (`crashed`, `timeout`), not the run."},
    {"--device", "D", OptionKind::Devices, 0, 0, "", "", "devices",
     "a vulkan, opencl or cuda device (an index or part of its name); `all` or a list (0,1) runs "
     "one shard per device in parallel child processes and merges their reports into --out (the "
     "merged verdict is the exit status)."},
    {"--level", "L1..L5", OptionKind::Level, 0, 0, "", "L5", "level",
     "the level to certify, with every level below it."},
    {"--runs", "N", OptionKind::Number, 1, 100000, "", "100", "runs",
     "runs of each case on the backend."},
    {"--seed-policy", "fixed|date", OptionKind::SeedPolicy, 0, 0, "", "fixed", "seed",
     "`date` derives the seed from the UTC date (YYYYMMDD) unless --seed is given; the policy is "
     "recorded in report.json. In a gate file, seed = { policy = \"fixed\", value = N } or "
     "{ policy = \"date\" }; --seed or --seed-policy on the command line replaces the whole "
     "table."},
    {"--seed", "S", OptionKind::Number, 0, UINT64_MAX, "", "1", "",
     "the seed of the random inputs and programs (a gate file's seed.value)."},
    {"--filter", "GLOB", OptionKind::Text, 0, 0, "", "", "filter",
     "runs only the cases whose id matches (a filtered run is no certificate)."},
    {"--time-budget-s", "S", OptionKind::Number, 1, 604800, "seconds", "", "time_budget_s",
     "bounds the whole run: cases not started when it is spent fail with `timeout`."},
    {"--case-budget-s", "S", OptionKind::Number, 0, 86400, "seconds", "300", "case_budget_s",
     "bounds all the runs of one case (0: no bound): a backend that is slow but never hangs fails "
     "that case with `timeout`."},
    {"--timeout-ms", "MS", OptionKind::Number, 1, UINT32_MAX, "milliseconds", "", "timeout_ms",
     "bounds one compile and one submission of a built-in backend (default 10000) and one compile "
     "or dispatch call of a plugin (default 60000)."},
    {"--out", "DIR", OptionKind::Text, 0, 0, "", "reports/<backend>-<UTC time>/", "out",
     "the folder of report.json, report.md, junit.xml, report.html and repro/. A reused folder "
     "keeps no old repro: the repro files an earlier run wrote there are deleted first (other "
     "files are left alone)."},
    {"--sign-key", "KEY.pem", OptionKind::Text, 0, 0, "", "", "sign_key",
     "signs report.json with that Ed25519 private key (`openssl genpkey -algorithm ed25519`); "
     "`verify --public-key` checks it. The key is read before any case runs: a bad key file exits "
     "2."},
    {"--gate", "FILE", OptionKind::Text, 0, 0, "", "", "",
     "reads the options that have a gate key, and [[known_failure]] tables, from a TOML gate file "
     "(certify/gate/README.md); options on the command line override it."},
    {"--baseline", "REPORT.json", OptionKind::Text, 0, 0, "", "", "",
     "the failing cases of an earlier report of the same backend and suite version are known "
     "failures; the gate (exit code) then fails only on new failures, while report.json's verdict "
     "stays that of the cases."},
    {"--shard", "I/N", OptionKind::Spec, 0, 0, "", "", "",
     "runs shard I (1..N) of the selection, balanced by the case times of --shard-times (else "
     "--baseline; else one unit per case); `merge` joins the shards."},
    {"--shard-times", "REPORT.json", OptionKind::Text, 0, 0, "", "", "",
     "the report whose case times balance the shards."},
    {"--inject-faults", "SPEC", OptionKind::Spec, 0, 0, "", "", "",
     "injects faults into the backend at seeded dispatch calls "
     "(device-lost@3,hang@5+,wrong-bytes%100,truncate@7,alloc-fail@9,crash@11,seed=S; crash only "
     "in a child process): a test of the run, and of a plugin, under faults (backends/PLUGINS.md, "
     "\"Injecting faults\")."},
    {"--cache-dir", "DIR", OptionKind::Text, 0, 0, "",
     "$XDG_CACHE_HOME/vyre-certify, else ~/.cache/vyre-certify", "",
     "keeps the vulkan and opencl drivers' compiled code between runs (at most 1 GiB, least "
     "recently used first out); report.json's driver_cache says how many compiles it served."},
    {"--no-cache", "", OptionKind::Switch, 0, 0, "", "", "", "keeps no driver cache."},
    {"--in-process", "", OptionKind::Switch, 0, 0, "", "", "",
     "keeps vulkan or opencl in this process (for a debugger; a driver crash then ends the run)."},
    {"--quiet", "", OptionKind::Switch, 0, 0, "", "", "", "shows no progress on stderr."},
    {"--dry-run", "", OptionKind::Switch, 0, 0, "", "", "",
     "checks the options, the selection, the shard and the baseline as the run would (exit 2 "
     "where it would), prints them and runs nothing; it opens no backend."},
}};

/// The row of `flag`; null when no option is spelled so.
const CertifyOption* find_certify_option(std::string_view flag);

/// The row whose gate file key is `key`; null when none.
const CertifyOption* find_gate_key(std::string_view key);

/// A Number option's value parsed and checked against its range; nullopt
/// when it is not a whole number in range.
std::optional<uint64_t> parse_option_number(const CertifyOption& option, std::string_view text);

/// What a Number option takes, as its error says: "--runs takes a number from
/// 1 to 100000", "--seed takes an unsigned 64-bit number".
std::string option_number_rule(const CertifyOption& option);

/// The gate file's keys in table order, for its error messages:
/// "backend, devices, ..., sign_key".
std::string gate_key_list();

/// The usage synopsis's option part, `[--device D] [--level L1..L5] ...`
/// (every option but --backend), wrapped to lines of at most `width`
/// characters, each continuation line indented by `indent` spaces.
std::string option_synopsis(size_t width, size_t indent);

/// One paragraph per option: `--runs N: help (default 100; gate key runs)`,
/// wrapped and indented by two spaces.
std::string option_help(size_t width);

/// Where a --dry-run value came from.
enum class OptionSource { CommandLine, GateFile, Default };

/// One option's value as a run resolved it.
struct ResolvedOption {
  std::string_view flag;
  std::string value;
  OptionSource source = OptionSource::CommandLine;
};

/// The --dry-run listing: one line `  --runs 20 (gate file)` per given option
/// and per option with a default, in table order; a switch prints no value.
/// `given` holds what the command line and the gate file gave.
std::string dry_run_listing(const std::vector<ResolvedOption>& given);

}  // namespace vyre::certify
