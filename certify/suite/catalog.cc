#include "certify/suite/catalog.h"

#include <future>

#include "certify/suite/found_bug_cases.h"
#include "certify/suite/generated_graph_cases.h"
#include "certify/suite/graph_suite_cases.h"
#include "certify/suite/primitive_cases.h"
#include "certify/suite/saturation_cases.h"
#include "reference/spec_tables/spec_tables.h"

namespace vyre::certify {
namespace {

SuiteCase table_case(TestCase tc, Level level, bool resizable) {
  DispatchCase d;
  d.resizable = resizable;
  // The operator tables guard on invocation_id.x < buflen, so one more
  // workgroup on x is inert; other axes would repeat x and race.
  if (resizable) d.spare_workgroups = {1, 0, 0};
  std::string id = std::string(name_of(level)) + "/" + tc.name;
  d.test_case = std::move(tc);
  return SuiteCase{std::move(id), level, "hand-written spec table", {}, std::move(d)};
}

void append(std::vector<SuiteCase>& out, std::vector<SuiteCase> more) {
  for (SuiteCase& c : more) out.push_back(std::move(c));
}

}  // namespace

std::vector<SuiteCase> build_catalog(const CatalogOptions& options) {
  // The saturation cases fill two 128 MiB buffers, the catalog's longest
  // piece: built on a thread of their own while the rest is.
  std::future<std::vector<SuiteCase>> saturation;
  if (options.up_to >= Level::L4) saturation = std::async(std::launch::async, saturation_cases);
  std::vector<SuiteCase> cases;
  for (TestCase& tc : reference::spec_table_cases()) {
    cases.push_back(table_case(std::move(tc), Level::L1, /*resizable=*/true));
  }
  append(cases, primitive_cases());
  if (options.up_to < Level::L2) return cases;
  for (TestCase& tc : reference::execution_model_cases()) {
    cases.push_back(table_case(std::move(tc), Level::L2, /*resizable=*/false));
  }
  if (options.up_to < Level::L3) return cases;
  append(cases, graph_archetype_cases());
  if (options.up_to < Level::L4) return cases;
  append(cases, generated_graph_cases(options.seed));
  std::vector<SuiteCase> random;
  if (options.up_to >= Level::L5) {
    RandomProgramTally tally;
    random = random_program_cases(options.seed, options.random_programs, tally);
    if (options.random_tally != nullptr) *options.random_tally = tally;
  }
  append(cases, saturation.get());
  append(cases, std::move(random));
  if (options.up_to >= Level::L5) append(cases, found_bug_cases());
  return cases;
}

}  // namespace vyre::certify
