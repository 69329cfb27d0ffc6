#include "certify/cli/certify_args.h"

#include <array>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <set>

#include "backends/registry/registry.h"
#include "certify/gate/device_shards.h"
#include "certify/gate/gate_file.h"
#include "certify/gate/seed_policy.h"

namespace vyre::cli {
namespace {

using certify::CertifyOption;
using certify::OptionSource;

/// Applies one option's value to the arguments; an error message on a bad value.
using Setter = std::optional<std::string> (*)(const CertifyOption& option, const std::string& value,
                                              CertifyArgs& out);

std::optional<std::string> set_backend_choice(const CertifyOption& option, const std::string& value,
                                              CertifyArgs& out) {
  std::optional<std::string> error;
  take_backend_option(std::string(option.flag), value, out.backend, error);
  return error;
}

std::optional<std::string> set_device(const CertifyOption& option, const std::string& value,
                                      CertifyArgs& out) {
  if (!certify::names_several_devices(value)) return set_backend_choice(option, value, out);
  out.device_list = value;
  return std::nullopt;
}

std::optional<std::string> set_shard_or_baseline(const CertifyOption& option,
                                                 const std::string& value, CertifyArgs& out) {
  std::optional<std::string> error;
  take_shard_baseline_option(std::string(option.flag), value, out.gate, error);
  return error;
}

std::optional<std::string> set_level(const CertifyOption&, const std::string& value,
                                     CertifyArgs& out) {
  const auto level = certify::level_named(value);
  if (!level) return "unknown level `" + value + "`; levels are L1, L2, L3, L4, L5";
  out.run.level = *level;
  return std::nullopt;
}

/// A Number option's value, or its rule as the error.
template <typename Apply>
std::optional<std::string> with_number(const CertifyOption& option, const std::string& value,
                                       Apply apply) {
  const std::optional<uint64_t> number = certify::parse_option_number(option, value);
  if (!number) return certify::option_number_rule(option);
  apply(*number);
  return std::nullopt;
}

std::optional<std::string> set_runs(const CertifyOption& option, const std::string& value,
                                    CertifyArgs& out) {
  return with_number(option, value, [&](uint64_t n) { out.run.runs = static_cast<uint32_t>(n); });
}

std::optional<std::string> set_seed(const CertifyOption& option, const std::string& value,
                                    CertifyArgs& out) {
  return with_number(option, value, [&](uint64_t n) {
    out.run.seed = n;
    out.seed_given = true;
  });
}

std::optional<std::string> set_seed_policy(const CertifyOption&, const std::string& value,
                                           CertifyArgs& out) {
  const auto policy = certify::seed_policy_named(value);
  if (!policy) return "--seed-policy takes `fixed` or `date`";
  out.run.seed_policy = *policy;
  return std::nullopt;
}

std::optional<std::string> set_filter(const CertifyOption&, const std::string& value,
                                      CertifyArgs& out) {
  out.run.filter = value;
  return std::nullopt;
}

std::optional<std::string> set_time_budget(const CertifyOption& option, const std::string& value,
                                           CertifyArgs& out) {
  return with_number(option, value,
                     [&](uint64_t s) { out.run.time_budget = std::chrono::seconds(s); });
}

std::optional<std::string> set_case_budget(const CertifyOption& option, const std::string& value,
                                           CertifyArgs& out) {
  return with_number(option, value,
                     [&](uint64_t s) { out.run.case_budget = std::chrono::seconds(s); });
}

std::optional<std::string> set_out(const CertifyOption&, const std::string& value,
                                   CertifyArgs& out) {
  if (value.empty()) return "--out needs a folder, not an empty string";
  out.run.out_dir = value;
  return std::nullopt;
}

std::optional<std::string> set_sign_key(const CertifyOption&, const std::string& value,
                                        CertifyArgs& out) {
  auto key = certify::Ed25519Key::load_private(value);
  if (!key) return "--sign-key " + key.error().message;
  out.sign_key_path = value;
  out.sign_key = std::move(*key);
  return std::nullopt;
}

/// --gate is read before any option is applied (collect_options).
std::optional<std::string> gate_read_first(const CertifyOption&, const std::string&, CertifyArgs&) {
  return std::nullopt;
}

std::optional<std::string> set_backend_switch(const CertifyOption& option, const std::string&,
                                              CertifyArgs& out) {
  std::optional<std::string> error;
  take_backend_switch(std::string(option.flag), out.backend, error);
  return error;
}

std::optional<std::string> set_quiet(const CertifyOption&, const std::string&, CertifyArgs& out) {
  out.run.progress = false;
  return std::nullopt;
}

std::optional<std::string> set_dry_run(const CertifyOption&, const std::string&, CertifyArgs& out) {
  out.dry_run = true;
  return std::nullopt;
}

/// What each row of kCertifyOptions does, in the table's order (checked
/// below, at compile time).
struct RowSetter {
  std::string_view flag;
  Setter set;
};
constexpr std::array<RowSetter, certify::kCertifyOptions.size()> kSetters = {{
    {"--backend", set_backend_choice},
    {"--device", set_device},
    {"--level", set_level},
    {"--runs", set_runs},
    {"--seed-policy", set_seed_policy},
    {"--seed", set_seed},
    {"--filter", set_filter},
    {"--time-budget-s", set_time_budget},
    {"--case-budget-s", set_case_budget},
    {"--timeout-ms", set_backend_choice},
    {"--out", set_out},
    {"--sign-key", set_sign_key},
    {"--gate", gate_read_first},
    {"--baseline", set_shard_or_baseline},
    {"--shard", set_shard_or_baseline},
    {"--shard-times", set_shard_or_baseline},
    {"--inject-faults", set_backend_choice},
    {"--cache-dir", set_backend_choice},
    {"--no-cache", set_backend_switch},
    {"--in-process", set_backend_switch},
    {"--quiet", set_quiet},
    {"--dry-run", set_dry_run},
}};

constexpr bool setters_follow_the_table() {
  for (size_t i = 0; i < kSetters.size(); ++i) {
    if (kSetters[i].flag != certify::kCertifyOptions[i].flag) return false;
  }
  return true;
}
static_assert(setters_follow_the_table(), "kSetters must list kCertifyOptions' rows in order");

/// The command line as the options it gives, with the gate file's options
/// first for every option the command line does not give; the gate's known
/// failures go to `out`. An error message on bad usage or a bad gate file.
std::optional<std::string> collect_options(std::span<const std::string> args,
                                           std::vector<certify::ResolvedOption>& given,
                                           CertifyArgs& out) {
  std::set<std::string_view> seen;
  std::optional<std::string> gate_path;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    const CertifyOption* option = certify::find_certify_option(flag);
    if (!option) return "unknown option `" + flag + "`";
    if (option->kind == certify::OptionKind::Switch) {
      given.push_back({option->flag, "", OptionSource::CommandLine});
      continue;
    }
    if (i + 1 >= args.size()) return "option " + flag + " needs a value";
    // Last-wins would certify something other than what was asked for.
    if (!seen.insert(option->flag).second) return flag + " given twice; give it once";
    given.push_back({option->flag, args[++i], OptionSource::CommandLine});
    if (option->flag == "--gate") gate_path = given.back().value;
  }
  if (!gate_path) return std::nullopt;
  auto gate = certify::load_gate_file(*gate_path);
  if (!gate) return gate.error().message;
  // The seed and its policy are one choice: either on the command line
  // overrides both of the gate's.
  const bool seed_on_command_line = seen.count("--seed") || seen.count("--seed-policy");
  std::vector<certify::ResolvedOption> from_gate;
  for (certify::GateOption& o : gate->options) {
    const CertifyOption* option = certify::find_certify_option(o.flag);
    if (!option) return "internal error: the gate file gave an unknown option " + o.flag;
    const bool seed_option = o.flag == "--seed" || o.flag == "--seed-policy";
    if (seen.count(o.flag) || (seed_option && seed_on_command_line)) continue;
    from_gate.push_back({option->flag, std::move(o.value), OptionSource::GateFile});
  }
  given.insert(given.begin(), from_gate.begin(), from_gate.end());
  out.run.known_failures = std::move(gate->known_failures);
  if (!out.run.known_failures.empty()) out.run.known_failures_source = *gate_path;
  return std::nullopt;
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

/// What the options leave to be decided together: the seed of a date policy,
/// one device named as a list, the backend, the cache and the output folder.
std::optional<std::string> resolve(CertifyArgs& out) {
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
  out.run.backend = out.backend.backend;
  if (out.run.out_dir.empty()) out.run.out_dir = default_out_dir(out.run.backend);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> parse_certify_args(std::span<const std::string> args, CertifyArgs& out) {
  if (auto problem = collect_options(args, out.given, out)) return problem;
  for (const certify::ResolvedOption& o : out.given) {
    const size_t row =
        static_cast<size_t>(certify::find_certify_option(o.flag) - certify::kCertifyOptions.data());
    if (auto problem = kSetters[row].set(certify::kCertifyOptions[row], o.value, out)) {
      return problem;
    }
  }
  return resolve(out);
}

}  // namespace vyre::cli
