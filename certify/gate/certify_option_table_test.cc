// The certify options table: every row reaches the usage text, the gate file
// reader and the --dry-run listing; the expected words are written here by
// hand, not taken from the table.
#include "certify/gate/certify_option_table.h"

#include <gtest/gtest.h>

#include <set>

#include "certify/gate/gate_file.h"

namespace vyre::certify {
namespace {

/// A TOML value the gate key of `option` accepts.
std::string good_value(const CertifyOption& option) {
  switch (option.kind) {
    case OptionKind::Number:
      return std::to_string(option.low);
    case OptionKind::Level:
      return "\"L2\"";
    case OptionKind::Devices:
      return "[0, 1]";
    case OptionKind::SeedPolicy:
      return "{ policy = \"fixed\", value = 5 }";
    default:
      return "\"x\"";
  }
}

TEST(CertifyOptionTable, FlagsAndGateKeysAreUnique) {
  std::set<std::string_view> flags;
  std::set<std::string_view> keys;
  for (const CertifyOption& option : kCertifyOptions) {
    EXPECT_TRUE(flags.insert(option.flag).second) << option.flag;
    EXPECT_TRUE(option.flag.starts_with("--")) << option.flag;
    EXPECT_FALSE(option.help.empty()) << option.flag;
    EXPECT_EQ(option.value_name.empty(), option.kind == OptionKind::Switch) << option.flag;
    if (!option.gate_key.empty()) {
      EXPECT_TRUE(keys.insert(option.gate_key).second) << option.gate_key;
    }
  }
}

TEST(CertifyOptionTable, EveryOptionIsInTheUsageText) {
  const std::string synopsis = option_synopsis(100, 20);
  const std::string help = option_help(100);
  const std::string unwrapped = option_help(100000);
  for (const CertifyOption& option : kCertifyOptions) {
    std::string spelled(option.flag);
    if (!option.value_name.empty()) spelled += " " + std::string(option.value_name);
    if (option.flag != "--backend") {
      EXPECT_NE(synopsis.find("[" + spelled + "]"), std::string::npos) << spelled;
    }
    EXPECT_NE(help.find("  " + spelled + ": "), std::string::npos) << spelled;
    if (!option.gate_key.empty()) {
      EXPECT_NE(unwrapped.find("gate key " + std::string(option.gate_key)), std::string::npos)
          << option.gate_key;
    }
  }
  for (const std::string& text : {synopsis, help}) {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      // A line may pass the width only where one word is longer.
      EXPECT_LE(end - start, 100u) << text.substr(start, end - start);
      start = end + 1;
    }
  }
}

TEST(CertifyOptionTable, HelpShowsDefaultsAndGateKeys) {
  const std::string help = option_help(1000);
  EXPECT_NE(help.find("  --runs N: runs of each case on the backend. (default 100; gate key runs)"),
            std::string::npos)
      << help;
  EXPECT_NE(help.find("  --quiet: shows no progress on stderr.\n"), std::string::npos) << help;
}

TEST(CertifyOptionTable, TheGateFileAcceptsEveryGateKey) {
  for (const CertifyOption& option : kCertifyOptions) {
    if (option.gate_key.empty()) continue;
    const std::string text = std::string(option.gate_key) + " = " + good_value(option) + "\n";
    auto gate = parse_gate_file(text, "g.toml");
    ASSERT_TRUE(gate) << text << ": " << gate.error().message;
    ASSERT_FALSE(gate->options.empty()) << text;
    EXPECT_EQ(gate->options.front().flag, option.flag) << text;
  }
}

TEST(CertifyOptionTable, TheGateFileRefusesAnOptionWithoutAGateKey) {
  auto gate = parse_gate_file("dry_run = true\n", "g.toml");
  ASSERT_FALSE(gate);
  EXPECT_NE(gate.error().message.find("g.toml:1:1: unknown key 'dry_run'"), std::string::npos)
      << gate.error().message;
  EXPECT_NE(gate.error().message.find(
                "use only backend, devices, level, runs, seed, filter, time_budget_s, "
                "case_budget_s, timeout_ms, out, sign_key and [[known_failure]]"),
            std::string::npos)
      << gate.error().message;
}

TEST(CertifyOptionTable, GateNumbersUseTheOptionsRange) {
  const CertifyOption* runs = find_certify_option("--runs");
  ASSERT_NE(runs, nullptr);
  EXPECT_FALSE(parse_gate_file("runs = 100001\n", "g.toml"));
  EXPECT_TRUE(parse_gate_file("runs = 100000\n", "g.toml"));
  EXPECT_EQ(parse_option_number(*runs, "100000"), 100000u);
  EXPECT_EQ(parse_option_number(*runs, "0"), std::nullopt);
  EXPECT_EQ(parse_option_number(*runs, "12x"), std::nullopt);
  EXPECT_EQ(parse_option_number(*runs, "-1"), std::nullopt);
  EXPECT_EQ(option_number_rule(*runs), "--runs takes a number from 1 to 100000");
  EXPECT_EQ(option_number_rule(*find_certify_option("--case-budget-s")),
            "--case-budget-s takes a number of seconds from 0 to 86400");
  EXPECT_EQ(option_number_rule(*find_certify_option("--seed")),
            "--seed takes an unsigned 64-bit number");
}

TEST(CertifyOptionTable, DryRunListsEveryGivenOptionAndEveryDefault) {
  std::vector<ResolvedOption> given;
  for (const CertifyOption& option : kCertifyOptions) {
    given.push_back(
        {option.flag, option.kind == OptionKind::Switch ? "" : "v", OptionSource::CommandLine});
  }
  const std::string all = dry_run_listing(given);
  for (const CertifyOption& option : kCertifyOptions) {
    const std::string line = "  " + std::string(option.flag) +
                             (option.kind == OptionKind::Switch ? "" : " v") + " (command line)\n";
    EXPECT_NE(all.find(line), std::string::npos) << line;
  }
  const std::string defaults = dry_run_listing({{"--runs", "20", OptionSource::GateFile}});
  EXPECT_EQ(defaults,
            "  --level L5 (default)\n"
            "  --runs 20 (gate file)\n"
            "  --seed-policy fixed (default)\n"
            "  --seed 1 (default)\n"
            "  --case-budget-s 300 (default)\n"
            "  --out reports/<backend>-<UTC time>/ (default)\n"
            "  --cache-dir $XDG_CACHE_HOME/vyre-certify, else ~/.cache/vyre-certify (default)\n");
}

TEST(CertifyOptionTable, UnknownFlagsAndKeysAreNotFound) {
  EXPECT_EQ(find_certify_option("--bogus"), nullptr);
  EXPECT_EQ(find_gate_key("colour"), nullptr);
  EXPECT_EQ(find_gate_key(""), nullptr);
  ASSERT_NE(find_gate_key("seed"), nullptr);
  EXPECT_EQ(find_gate_key("seed")->flag, "--seed-policy");
}

}  // namespace
}  // namespace vyre::certify
