#include "certify/suite/catalog.h"

#include <set>

#include "archetypes/graph/archetype_cases.h"
#include "certify/suite/primitive_cases.h"
#include "reference/spec_tables/spec_tables.h"

namespace vyre::certify {
namespace {

SuiteCase table_case(TestCase tc, Level level, bool resizable) {
  SuiteCase c;
  c.id = std::string(name_of(level)) + "/" + tc.name;
  c.level = level;
  c.oracle = "hand-written spec table";
  c.resizable = resizable;
  c.test_case = std::move(tc);
  return c;
}

/// graph.bfs on every archetype: canonical findings judged against the
/// hand-computed ones (pinned spec section 7's rule past max_findings).
void add_graph_cases(std::vector<SuiteCase>& out) {
  auto cases = archetypes::graph_cases();
  if (!cases) {
    // A broken archetype is a defect of the suite: keep it visible as a case
    // that cannot pass rather than dropping it.
    SuiteCase broken;
    broken.id = "L3/graph.bfs/archetypes";
    broken.level = Level::L3;
    broken.oracle = "hand-computed findings";
    out.push_back(std::move(broken));
    return;
  }
  for (archetypes::GraphCase& gc : *cases) {
    auto shared = std::make_shared<const archetypes::GraphCase>(std::move(gc));
    SuiteCase c;
    c.id = "L3/" + shared->test_case.name;
    c.level = Level::L3;
    c.oracle = "hand-computed findings";
    c.test_case = shared->test_case;
    c.poisonable = std::vector<std::string>{"findings"};
    c.canonicalize = [shared](const BufferSet& raw) { return shared->canonicalize(raw); };
    c.compare = [shared](const BufferSet&, const BufferSet& observed) {
      return shared->compare(observed);
    };
    out.push_back(std::move(c));
  }
}

}  // namespace

std::vector<SuiteCase> build_catalog(const CatalogOptions&) {
  std::vector<SuiteCase> cases;
  for (TestCase& tc : reference::spec_table_cases()) {
    cases.push_back(table_case(std::move(tc), Level::L1, /*resizable=*/true));
  }
  for (SuiteCase& c : primitive_cases()) cases.push_back(std::move(c));
  for (TestCase& tc : reference::execution_model_cases()) {
    cases.push_back(table_case(std::move(tc), Level::L2, /*resizable=*/false));
  }
  add_graph_cases(cases);
  return cases;
}

}  // namespace vyre::certify
