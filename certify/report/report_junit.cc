#include <cstdio>
#include <sstream>

#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string seconds(uint64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(us) / 1e6);
  return buf;
}

}  // namespace

std::string report_junit(const Report& r) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"vyre-certify " << xml_escape(r.backend) << "\" time=\""
      << seconds(r.wall_us) << "\">\n";
  for (const LevelSummary& l : r.levels) {
    out << "  <testsuite name=\"" << name_of(l.level) << "\" tests=\"" << l.cases
        << "\" failures=\"" << (l.cases - l.passed) << "\" errors=\"0\" skipped=\"0\">\n";
    for (const CaseResult& c : r.cases) {
      if (c.level != l.level) continue;
      out << "    <testcase classname=\"vyre." << name_of(c.level) << "\" name=\""
          << xml_escape(c.id) << "\" time=\"" << seconds(c.backend_us + c.compile_us) << "\"";
      if (c.verdict == Verdict::Pass) {
        out << "/>\n";
        continue;
      }
      out << ">\n      <failure type=\"" << name_of(c.verdict) << "\" message=\""
          << xml_escape(c.message) << "\">";
      if (c.failure) {
        out << xml_escape(c.failure->variant + "\n" + c.failure->detail);
        if (!c.failure->repro.empty()) out << xml_escape("\nrepro: " + c.failure->repro);
      }
      out << "</failure>\n    </testcase>\n";
    }
    if (l.cases == 0) {
      // Fail closed: a level with no case is a failure CI must see.
      out << "    <testcase classname=\"vyre." << name_of(l.level)
          << "\" name=\"level has cases\">\n      <failure type=\"no cases\" message=\""
          << xml_escape(l.reason) << "\"/>\n    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace vyre::certify
