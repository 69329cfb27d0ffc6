#include <cstdio>
#include <sstream>

#include "certify/report/report_text.h"
#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

std::string seconds(uint64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(us) / 1e6);
  return buf;
}

/// JUnit's split: a <failure> is a backend judged wrong or short of the
/// level (wrong bytes, malformed output, not supported: fail closed, never a
/// skip); an <error> is a case that could not finish.
bool is_junit_failure(Verdict v) {
  return v == Verdict::Fail || v == Verdict::BadOutput || v == Verdict::NotSupported;
}

/// One <testsuite>: its testcases, and the counts of what it holds.
struct SuiteXml {
  std::ostringstream cases;
  uint32_t tests = 0;
  uint32_t failures = 0;
  uint32_t errors = 0;
};

void add_case(SuiteXml& suite, const CaseResult& c) {
  ++suite.tests;
  suite.cases << "    <testcase classname=\"vyre." << name_of(c.level) << "\" name=\""
              << xml_text(c.id) << "\" time=\"" << seconds(c.backend_us + c.compile_us) << "\"";
  if (c.verdict == Verdict::Pass) {
    suite.cases << "/>\n";
    return;
  }
  const bool failure = is_junit_failure(c.verdict);
  ++(failure ? suite.failures : suite.errors);
  const char* element = failure ? "failure" : "error";
  suite.cases << ">\n      <" << element << " type=\"" << name_of(c.verdict) << "\" message=\""
              << xml_text(c.message) << "\">";
  if (c.failure) {
    suite.cases << xml_text(c.failure->variant + "\n" + c.failure->detail);
    if (!c.failure->repro.empty()) suite.cases << xml_text("\nrepro: " + c.failure->repro);
  }
  suite.cases << "</" << element << ">\n    </testcase>\n";
}

}  // namespace

std::string report_junit(const Report& r) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"vyre-certify " << xml_text(r.backend) << "\" time=\""
      << seconds(r.wall_us) << "\">\n";
  for (const LevelSummary& l : r.levels) {
    SuiteXml suite;
    for (const CaseResult& c : r.cases) {
      if (c.level == l.level) add_case(suite, c);
    }
    if (suite.tests == 0) {
      // Fail closed: a level with no case is a failure CI must see.
      ++suite.tests;
      ++suite.failures;
      suite.cases << "    <testcase classname=\"vyre." << name_of(l.level)
                  << "\" name=\"level has cases\">\n      <failure type=\"no cases\" message=\""
                  << xml_text(l.reason) << "\"/>\n    </testcase>\n";
    }
    out << "  <testsuite name=\"" << name_of(l.level) << "\" tests=\"" << suite.tests
        << "\" failures=\"" << suite.failures << "\" errors=\"" << suite.errors
        << "\" skipped=\"0\">\n"
        << suite.cases.str() << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace vyre::certify
