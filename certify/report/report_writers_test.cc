// report.md and junit.xml hold text from backends (messages, device names):
// any bytes must come out as well-formed Markdown and XML 1.0, and junit.xml's
// counts must be those of the testcases it writes.
#include <gtest/gtest.h>

#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

// Invalid UTF-8 (FF), a control (01), U+FFFF (valid UTF-8, not an XML char),
// and characters that mean something in Markdown and XML.
const std::string kHostileText = "bad \xFF text \x01 \xEF\xBF\xBF | <b> & `x`";

CaseResult case_with(std::string id, Level level, Verdict verdict, std::string message) {
  CaseResult c;
  c.id = std::move(id);
  c.level = level;
  c.verdict = verdict;
  c.message = std::move(message);
  return c;
}

Report report_of(std::vector<CaseResult> cases, std::vector<LevelSummary> levels) {
  Report r;
  r.backend = "b";
  r.device.device_name = kHostileText;
  r.cases = std::move(cases);
  r.levels = std::move(levels);
  return r;
}

LevelSummary level(Level l, std::string reason = "") {
  LevelSummary s;
  s.level = l;
  s.reason = std::move(reason);
  return s;
}

TEST(ReportJunit, ReplacesWhatXmlCannotHold) {
  Report r =
      report_of({case_with("L1/x", Level::L1, Verdict::Error, kHostileText)}, {level(Level::L1)});
  std::string xml = report_junit(r);
  EXPECT_EQ(xml.find('\xFF'), std::string::npos);
  EXPECT_EQ(xml.find('\x01'), std::string::npos);
  EXPECT_EQ(xml.find("\xEF\xBF\xBF"), std::string::npos);
  EXPECT_NE(xml.find("bad \xEF\xBF\xBD text \xEF\xBF\xBD \xEF\xBF\xBD | &lt;b&gt; &amp; `x`"),
            std::string::npos)
      << xml;
}

TEST(ReportJunit, CountsTheTestcasesItWrites) {
  // L1: one pass, one fail, one not supported, one timeout; L2 ran nothing.
  Report r = report_of({case_with("L1/a", Level::L1, Verdict::Pass, ""),
                        case_with("L1/b", Level::L1, Verdict::Fail, "wrong"),
                        case_with("L1/c", Level::L1, Verdict::NotSupported, "no"),
                        case_with("L1/d", Level::L1, Verdict::Timeout, "slow")},
                       {level(Level::L1), level(Level::L2, "no case ran at this level")});
  std::string xml = report_junit(r);
  EXPECT_NE(xml.find("<testsuite name=\"L1\" tests=\"4\" failures=\"2\" errors=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<failure type=\"not supported\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<error type=\"timeout\""), std::string::npos) << xml;
  // The empty level's stand-in testcase is counted: 1 test, 1 failure.
  EXPECT_NE(xml.find("<testsuite name=\"L2\" tests=\"1\" failures=\"1\" errors=\"0\""),
            std::string::npos)
      << xml;
}

TEST(ReportMarkdown, EscapesBackendTextInTablesAndProse) {
  Report r =
      report_of({case_with("L1/x", Level::L1, Verdict::Error, kHostileText)}, {level(Level::L1)});
  std::string md = report_markdown(r);
  EXPECT_EQ(md.find('\xFF'), std::string::npos);
  EXPECT_EQ(md.find("<b>"), std::string::npos);
  EXPECT_NE(
      md.find("| device | bad \xEF\xBF\xBD text   \xEF\xBF\xBF \\| &lt;b&gt; &amp; \\`x\\` |"),
      std::string::npos)
      << md;
}

}  // namespace
}  // namespace vyre::certify
