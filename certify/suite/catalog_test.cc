// The catalogue's shape: unique ids, every level populated (fail closed
// starts here), each case runnable one way, and L4 drawn from the seed.
#include "certify/suite/catalog.h"
#include "certify/suite/generated_graph_cases.h"
#include "certify/suite/graph_suite_cases.h"
#include "certify/suite/primitive_cases.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "backends/reference_backend.h"
#include "certify/run/case_runner.h"

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

TEST(Catalog, EveryCaseIsRunnableAndSaysHowItIsJudged) {
  for (const SuiteCase& c : catalog()) {
    if (const auto* host = std::get_if<HostCase>(&c.body)) {
      ASSERT_NE(host->work, nullptr) << c.id;
      // Registered under the case's id, which names it in a crash's message.
      EXPECT_EQ(host->work->name(), c.id);
      EXPECT_EQ(find_hosted_work(host->work->id()), host->work.get()) << c.id;
      continue;
    }
    const TestCase& tc = std::get<DispatchCase>(c.body).test_case;
    // graph.bfs is judged on canonical findings, so it needs its own
    // expectation; everything else compares bytes.
    EXPECT_EQ(tc.comparison == Comparison::GraphBfs, c.id.find("/graph.bfs/") != std::string::npos)
        << c.id;
    if (tc.comparison == Comparison::GraphBfs) {
      EXPECT_TRUE(tc.expected.has_value()) << c.id;
    }
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
    if (!std::get<HostCase>(c.body).expected.at("findings").empty()) ++with_findings;
  }
  EXPECT_EQ(total, 30);
  EXPECT_GE(with_findings, total / 3);
}

/// The inputs of every single-dispatch generated case and the expectations
/// of every host-driven one, by id.
std::map<std::string, BufferSet> generated_data(uint64_t seed) {
  std::map<std::string, BufferSet> out;
  for (const SuiteCase& c : generated_graph_cases(seed)) {
    const auto* d = std::get_if<DispatchCase>(&c.body);
    out[c.id] = d ? d->test_case.inputs : std::get<HostCase>(c.body).expected;
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

/// `c` run `runs` times on the reference backend, at preferred size 64.
CaseResult run_on_reference(const SuiteCase& c, uint32_t runs) {
  auto reference = make_reference_backend(BackendOptions{});
  CaseRunOptions o;
  o.runs = runs;
  o.preferred_workgroup_size = 64;
  return run_case(*reference, c, o, nullptr);
}

TEST(Catalog, PrimitiveCasesAreAlsoOverDispatchedOnX) {
  const std::vector<SuiteCase> cases = primitive_cases();
  ASSERT_EQ(cases.size(), 30u);
  for (const SuiteCase& c : cases) {
    EXPECT_EQ(std::get<DispatchCase>(c.body).spare_workgroups, (std::array<uint32_t, 3>{1, 0, 0}))
        << c.id;
    // Sizes 1 and 64 (the preferred size here), each with zeroed and
    // poisoned outputs, and one over-dispatched grid: five variants.
    CaseResult r = run_on_reference(c, 1);
    EXPECT_EQ(r.verdict, Verdict::Pass) << c.id << ": " << r.message;
    EXPECT_EQ(r.variants, 5u) << c.id;
  }
}

TEST(Catalog, GraphBfsRunsAtItsFixedSizeAndOverDispatchedOnEveryAxis) {
  for (const SuiteCase& c : graph_archetype_cases()) {
    if (!c.id.starts_with("L3/graph.bfs/")) continue;
    // graph.bfs's interface fixes its workgroup size at 64 (seed 001).
    const auto* d = std::get_if<DispatchCase>(&c.body);
    ASSERT_NE(d, nullptr) << c.id;
    EXPECT_FALSE(d->resizable) << c.id;
    EXPECT_EQ(d->test_case.program.workgroup_size, (std::array<uint32_t, 3>{64, 1, 1})) << c.id;
    EXPECT_EQ(d->spare_workgroups, (std::array<uint32_t, 3>{1, 1, 1})) << c.id;
  }
  const auto ids = by_id(catalog());
  // Outputs as given, poisoned, and over-dispatched with poisoned outputs.
  CaseResult r = run_on_reference(*ids.at("L3/graph.bfs/chain"), 1);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_EQ(r.variants, 3u);
}

TEST(Catalog, DataflowCasesAreCheckedOnTheReferenceBackendFirst) {
  std::vector<SuiteCase> cases = graph_archetype_cases();
  auto it = std::find_if(cases.begin(), cases.end(),
                         [](const SuiteCase& c) { return c.id == "L3/dataflow/chain"; });
  ASSERT_NE(it, cases.end());
  CaseResult r = run_on_reference(*it, 2);
  EXPECT_EQ(r.verdict, Verdict::Pass) << r.message;
  EXPECT_GT(r.reference_us, 0u);
  // An expectation the reference does not produce makes the case invalid,
  // not a failure of the backend under test.
  std::get<HostCase>(it->body).expected.at("findings").push_back(1);
  r = run_on_reference(*it, 2);
  EXPECT_EQ(r.verdict, Verdict::InvalidCase) << r.message;
  EXPECT_EQ(r.dispatches, 0u);
}

}  // namespace
}  // namespace vyre::certify
