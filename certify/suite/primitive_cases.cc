#include "certify/suite/primitive_cases.h"

#include "reference/spec_tables/primitive_call_cases.h"

namespace vyre::certify {

std::vector<SuiteCase> primitive_cases() {
  std::vector<SuiteCase> out;
  for (TestCase& tc : reference::primitive_call_cases()) {
    SuiteCase c;
    c.id = "L1/" + tc.name;
    c.level = Level::L1;
    c.oracle = "reference interpreter (primitives checked against an independent implementation)";
    c.test_case = std::move(tc);
    c.resizable = true;
    // The program guards on invocation_id.x < buflen(out), so one more
    // workgroup on x is inert; other axes would repeat x's stores and race.
    c.spare_workgroups = {1, 0, 0};
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace vyre::certify
