// The catalogue's shape: unique ids, every level populated (fail closed
// starts here), each case runnable one way, and L4 drawn from the seed.
#include "certify/suite/catalog.h"
#include "certify/suite/generated_graph_cases.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace vyre::certify {
namespace {

/// The whole catalogue for seed 1, built once: it holds 128 MiB of
/// saturation data.
const std::vector<SuiteCase>& catalog() {
  static const std::vector<SuiteCase> cases = build_catalog({});
  return cases;
}

std::map<std::string, const SuiteCase*> by_id(const std::vector<SuiteCase>& cases) {
  std::map<std::string, const SuiteCase*> out;
  for (const SuiteCase& c : cases) out[c.id] = &c;
  return out;
}

TEST(Catalog, IdsAreUniqueAndNameTheirLevel) {
  const std::vector<SuiteCase>& cases = catalog();
  std::set<std::string> ids;
  for (const SuiteCase& c : cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_TRUE(c.id.starts_with(std::string(name_of(c.level)) + "/")) << c.id;
    EXPECT_FALSE(c.oracle.empty()) << c.id;
  }
}

TEST(Catalog, EveryLevelHasCasesAndTheLevelsAreCumulative) {
  const std::vector<SuiteCase>& cases = catalog();
  std::map<Level, int> per_level;
  for (const SuiteCase& c : cases) ++per_level[c.level];
  for (Level level : all_levels()) EXPECT_GT(per_level[level], 0) << name_of(level);
  // Building up to L2 gives exactly the L1 and L2 cases.
  const std::vector<SuiteCase> low = build_catalog({.seed = 1, .up_to = Level::L2});
  EXPECT_EQ(low.size(), static_cast<size_t>(per_level[Level::L1] + per_level[Level::L2]));
  for (const SuiteCase& c : low) EXPECT_LE(c.level, Level::L2) << c.id;
}

TEST(Catalog, EveryCaseRunsExactlyOneWay) {
  for (const SuiteCase& c : catalog()) {
    EXPECT_NE(c.test_case.has_value(), static_cast<bool>(c.host_driven)) << c.id;
  }
}

TEST(Catalog, LevelFourHasGeneratedGraphsForBothWorkloadsAndSaturation) {
  const auto ids = by_id(catalog());
  for (std::string_view prefix :
       {"L4/graph.bfs/generated/sparse_random-", "L4/graph.bfs/generated/power_law-",
        "L4/graph.bfs/generated/dag-", "L4/graph.bfs/generated/long_chain-",
        "L4/graph.bfs/generated/dense_clique-", "L4/dataflow/generated/", "L4/graph.bfs/rmat/",
        "L4/dataflow/rmat/", "L4/saturation/"}) {
    auto it = ids.lower_bound(std::string(prefix));
    EXPECT_TRUE(it != ids.end() && it->first.starts_with(prefix)) << "no case " << prefix << "*";
  }
}

TEST(Catalog, GeneratedEngineCasesExpectFindings) {
  // Random roles could in principle leave every graph without a reachable
  // sink; with the fixed seed 1, most generated graphs must have some, or the
  // level would check little.
  int with_findings = 0, total = 0;
  for (const SuiteCase& c : catalog()) {
    if (!c.id.starts_with("L4/dataflow/generated/")) continue;
    ++total;
    if (!c.host_expected.at("findings").empty()) ++with_findings;
  }
  EXPECT_EQ(total, 30);
  EXPECT_GE(with_findings, total / 3);
}

/// The inputs of every single-dispatch generated case and the expectations
/// of every host-driven one, by id.
std::map<std::string, BufferSet> generated_data(uint64_t seed) {
  std::map<std::string, BufferSet> out;
  for (const SuiteCase& c : generated_graph_cases(seed)) {
    out[c.id] = c.test_case ? c.test_case->inputs : c.host_expected;
  }
  return out;
}

TEST(Catalog, LevelFourIsDrawnFromTheSeed) {
  const auto first = generated_data(7);
  EXPECT_EQ(first, generated_data(7));
  const auto other = generated_data(8);
  ASSERT_EQ(first.size(), other.size());
  int differing = 0;
  for (const auto& [id, data] : first) differing += other.at(id) != data ? 1 : 0;
  EXPECT_GT(differing, static_cast<int>(first.size()) / 2);
}

}  // namespace
}  // namespace vyre::certify
