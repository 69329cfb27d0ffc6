// The gate file: a good file read whole, each kind of error at its line and
// column (counted by hand in the texts below), and the options it stands for.
#include "certify/gate/gate_file.h"

#include <gtest/gtest.h>

namespace vyre::certify {
namespace {

constexpr std::string_view kGood = R"(backend = "vulkan"
devices = [0, "llvmpipe"]
level = "L4"
runs = 20
seed = { policy = "fixed", value = 7 }
filter = "L1/*"
time_budget_s = 3600
case_budget_s = 60
timeout_ms = 5000
out = "reports/nightly"
sign_key = "/secrets/nightly.pem"

[[known_failure]]
case = "L3/graph.bfs/empty_graph"
reason = "driver bug 123"
link = "https://example.org/123"

[[known_failure]]
case = "L2/atomics/add"
reason = "flaky atomics on lavapipe"
)";

/// The gate's options as (flag, value) pairs, in order.
std::vector<std::pair<std::string, std::string>> pairs(const GateFile& gate) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const GateOption& o : gate.options) out.emplace_back(o.flag, o.value);
  return out;
}

TEST(GateFile, AGoodFileSetsEveryKeyAsTheOptionItStandsFor) {
  auto gate = parse_gate_file(kGood, "gate.toml");
  ASSERT_TRUE(gate) << gate.error().message;
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"--backend", "vulkan"},
      {"--device", "0,llvmpipe"},
      {"--level", "L4"},
      {"--runs", "20"},
      {"--seed-policy", "fixed"},
      {"--seed", "7"},
      {"--filter", "L1/*"},
      {"--time-budget-s", "3600"},
      {"--case-budget-s", "60"},
      {"--timeout-ms", "5000"},
      {"--out", "reports/nightly"},
      {"--sign-key", "/secrets/nightly.pem"}};
  EXPECT_EQ(pairs(*gate), expected);
  ASSERT_EQ(gate->known_failures.size(), 2u);
  EXPECT_EQ(gate->known_failures[0].case_id, "L3/graph.bfs/empty_graph");
  EXPECT_EQ(gate->known_failures[0].reason, "driver bug 123");
  EXPECT_EQ(gate->known_failures[0].link, "https://example.org/123");
  EXPECT_EQ(gate->known_failures[1].case_id, "L2/atomics/add");
  EXPECT_EQ(gate->known_failures[1].link, "");
}

TEST(GateFile, AnEmptyFileSetsNothing) {
  auto gate = parse_gate_file("", "empty.toml");
  ASSERT_TRUE(gate) << gate.error().message;
  EXPECT_TRUE(gate->options.empty());
  EXPECT_TRUE(gate->known_failures.empty());
}

TEST(GateFile, DevicesAllAndADateSeedGiveThePolicyAndNoSeed) {
  auto gate = parse_gate_file("devices = \"all\"\nseed = { policy = \"date\" }\n", "g.toml");
  ASSERT_TRUE(gate) << gate.error().message;
  const std::vector<std::pair<std::string, std::string>> expected = {{"--device", "all"},
                                                                     {"--seed-policy", "date"}};
  EXPECT_EQ(pairs(*gate), expected);
}

struct BadGate {
  const char* name;
  std::string_view text;
  /// "FILE:LINE:COL:" counted by hand.
  std::string_view where;
  /// A phrase the problem must contain.
  std::string_view says;
};

class GateFileError : public testing::TestWithParam<BadGate> {};

TEST_P(GateFileError, NamesTheLineAndColumn) {
  const BadGate& bad = GetParam();
  auto gate = parse_gate_file(bad.text, "g.toml");
  ASSERT_FALSE(gate) << bad.name;
  const std::string& message = gate.error().message;
  EXPECT_EQ(message.rfind("gate file ", 0), 0u) << message;
  EXPECT_NE(message.find(std::string(bad.where) + " "), std::string::npos) << message;
  EXPECT_NE(message.find(bad.says), std::string::npos) << message;
  EXPECT_NE(message.find("Fix: "), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    EachError, GateFileError,
    testing::Values(
        BadGate{"UnknownKey", "runs = 2\ncolour = \"red\"\n",
                "g.toml:2:1:", "unknown key 'colour'"},
        BadGate{"RunsNotANumber", "runs = \"many\"\n", "g.toml:1:8:", "'runs' must be an integer"},
        BadGate{"RunsZero", "backend = \"reference\"\nruns = 0\n",
                "g.toml:2:8:", "'runs' = 0 is outside [1, 100000]"},
        BadGate{"LevelUnknown", "level = \"L9\"\n", "g.toml:1:9:", "unknown level \"L9\""},
        BadGate{"LevelLowerCase", "level = \"l3\"\n", "g.toml:1:9:", "unknown level \"l3\""},
        BadGate{"BackendNumber", "backend = 3\n", "g.toml:1:11:", "'backend' must be a string"},
        BadGate{"BackendEmpty", "backend = \"\"\n", "g.toml:1:11:", "'backend' is empty"},
        BadGate{"SeedNotATable", "seed = 5\n", "g.toml:1:8:", "'seed' must be a table"},
        BadGate{"SeedPolicyUnknown", "seed = { policy = \"weekly\" }\n",
                "g.toml:1:19:", "unknown seed policy \"weekly\""},
        BadGate{"SeedFixedWithoutValue", "seed = { policy = \"fixed\" }\n",
                "g.toml:1:8:", "needs 'seed.value'"},
        BadGate{"SeedDateWithValue", "seed = { policy = \"date\", value = 3 }\n",
                "g.toml:1:35:", "does not apply to policy \"date\""},
        BadGate{"SeedUnknownKey", "seed = { policy = \"date\", salt = 3 }\n",
                "g.toml:1:27:", "unknown key 'seed.salt'"},
        BadGate{"SeedNegative", "seed = { policy = \"fixed\", value = -1 }\n",
                "g.toml:1:36:", "non-negative"},
        BadGate{"DevicesEmptyList", "devices = []\n", "g.toml:1:11:", "empty list"},
        BadGate{"DevicesCommaName", "devices = [\"0,1\"]\n", "g.toml:1:12:", "is not one device"},
        BadGate{"DevicesTable", "devices = { a = 1 }\n",
                "g.toml:1:11:", "must be \"all\" or a list"},
        BadGate{"TimeBudgetZero", "time_budget_s = 0\n",
                "g.toml:1:17:", "'time_budget_s' = 0 is outside [1, 604800]"},
        BadGate{"CaseBudgetTooLong", "case_budget_s = 90000\n",
                "g.toml:1:17:", "outside [0, 86400]"},
        BadGate{"TimeoutFloat", "timeout_ms = 1.5\n", "g.toml:1:14:", "must be an integer"},
        BadGate{"KnownFailureWithoutReason", "\n[[known_failure]]\ncase = \"L1/a\"\n",
                "g.toml:2:1:", "has no 'reason'"},
        BadGate{"KnownFailureWithoutCase", "[[known_failure]]\nreason = \"x\"\n",
                "g.toml:1:1:", "has no 'case'"},
        BadGate{"KnownFailureUnknownKey",
                "[[known_failure]]\ncase = \"L1/a\"\nreason = \"x\"\nbug = 4\n",
                "g.toml:4:1:", "unknown key 'known_failure[0].bug'"},
        BadGate{"KnownFailureTwice",
                "[[known_failure]]\ncase = \"L1/a\"\nreason = \"x\"\n"
                "[[known_failure]]\ncase = \"L1/a\"\nreason = \"y\"\n",
                "g.toml:4:1:", "listed twice"},
        BadGate{"KnownFailureNotTables", "known_failure = [1]\n",
                "g.toml:1:18:", "'known_failure[0]' must be a table"},
        BadGate{"MalformedToml", "runs = \n", "g.toml:1:8:", "malformed TOML"}),
    [](const testing::TestParamInfo<BadGate>& info) { return std::string(info.param.name); });

TEST(GateFile, AMissingFileSaysSo) {
  auto gate = load_gate_file("/nonexistent/gate.toml");
  ASSERT_FALSE(gate);
  EXPECT_NE(gate.error().message.find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace vyre::certify
