#include "certify/suite/primitive_cases.h"

#include "reference/spec_tables/primitive_call_cases.h"

namespace vyre::certify {

std::vector<SuiteCase> primitive_cases() {
  std::vector<SuiteCase> out;
  for (TestCase& tc : reference::primitive_call_cases()) {
    DispatchCase d;
    d.resizable = true;
    // The program guards on invocation_id.x < buflen(out), so one more
    // workgroup on x is inert; other axes would repeat x's stores and race.
    d.spare_workgroups = {1, 0, 0};
    std::string id = "L1/" + tc.name;
    d.test_case = std::move(tc);
    out.push_back(SuiteCase{
        std::move(id),
        Level::L1,
        "reference interpreter (primitives checked against an independent implementation)",
        {},
        std::move(d)});
  }
  return out;
}

}  // namespace vyre::certify
