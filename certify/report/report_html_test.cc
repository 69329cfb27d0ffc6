// report.html as text: the verdict, escaping of plugin text, the failure's
// words side by side with the differing ones highlighted, and the cap that
// keeps a huge buffer's page small. Expected markup is written by hand here.
#include <gtest/gtest.h>

#include "certify/report/failure_words.h"
#include "certify/report/report_writers.h"

namespace vyre::certify {
namespace {

constexpr std::string_view kDigest = "0123abcd";

/// Little-endian bytes of `words`.
ByteBuffer bytes_of(const std::vector<uint32_t>& words) {
  ByteBuffer out;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<uint8_t>(w >> (8 * b)));
  }
  return out;
}

Report certified_report() {
  Report r;
  r.backend = "reference";
  r.requested_level = Level::L1;
  r.certified = true;
  r.phase_us = {{"dispatch", 1500}, {"compile", 500}};
  CaseResult c;
  c.id = "L1/spec/binop/add";
  c.verdict = Verdict::Pass;
  r.cases = {c};
  r.levels = {{Level::L1, 1, 1, 0, 0, true, ""}};
  return r;
}

/// A NOT CERTIFIED report whose one case failed with `expected` and `observed` words.
Report failed_report(std::string id, std::vector<uint32_t> expected,
                     std::vector<uint32_t> observed) {
  Report r = certified_report();
  r.certified = false;
  r.reason = "L1: 1 case(s) failed";
  r.levels = {{Level::L1, 1, 0, 1, 0, false, "1 case(s) failed"}};
  CaseResult& c = r.cases[0];
  c.id = std::move(id);
  c.verdict = Verdict::Fail;
  c.message = "outputs differ from the expected bytes";
  Failure f;
  f.variant = "run=1";
  f.expected = {{"out", bytes_of(expected)}};
  f.observed = {{"out", bytes_of(observed)}};
  f.repro = "repro/L1_x.vyre";
  c.failure = f;
  return r;
}

size_t count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ReportHtml, ShowsTheVerdictAndCertificate) {
  std::string page = report_html(certified_report(), kDigest);
  EXPECT_NE(page.find("<h1>CERTIFIED at L1</h1>"), std::string::npos) << page;
  EXPECT_NE(page.find("<td class=\"digest\">0123abcd</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("Every case passed."), std::string::npos);

  page = report_html(failed_report("L1/x", {1}, {2}), kDigest);
  EXPECT_NE(page.find("<h1>NOT CERTIFIED at L1</h1>"), std::string::npos) << page;
  EXPECT_NE(page.find("L1: 1 case(s) failed"), std::string::npos);
  EXPECT_NE(page.find("vyre-certify run repro/L1_x.vyre --backend reference"), std::string::npos);
  EXPECT_NE(page.find("<a href=\"repro/L1_x.vyre\">repro/L1_x.vyre</a>"), std::string::npos);
}

TEST(ReportHtml, EscapesEveryStringFromPlugins) {
  const std::string hostile = "<script>alert(1)</script>\"'&";
  Report r = failed_report(hostile, {1}, {2});
  r.backend = hostile;
  r.device.device_name = hostile;
  r.cases[0].message = hostile;
  r.cases[0].failure->variant = hostile;
  r.phase_us[hostile] = 7;
  std::string page = report_html(r, kDigest);
  EXPECT_EQ(page.find("<script"), std::string::npos) << page;
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&apos;&amp;"), std::string::npos);
}

TEST(ReportHtml, HighlightsTheDifferingWords) {
  std::string page = report_html(failed_report("L1/x", {1, 2, 3, 4}, {1, 2, 9, 4}), kDigest);
  EXPECT_NE(page.find("<tr><td>2</td><td class=\"diff\">0x00000003</td>"
                      "<td class=\"diff\">0x00000009</td></tr>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<tr><td>1</td><td>0x00000002</td><td>0x00000002</td></tr>"),
            std::string::npos);
  EXPECT_EQ(count(page, "class=\"diff\""), 2u);
  EXPECT_NE(page.find("buffer out: 4 words, 1 differ; 0 words left out"), std::string::npos);
}

TEST(ReportHtml, CapsTheWordsOfAHugeBuffer) {
  // 4 MiB, every word different: the table stops at 48 rows and says so.
  const size_t words = 1 << 20;
  std::string page = report_html(
      failed_report("L1/x", std::vector<uint32_t>(words, 0), std::vector<uint32_t>(words, 1)),
      kDigest);
  EXPECT_LT(page.size(), 64u * 1024) << "the page grew with the buffer";
  EXPECT_EQ(count(page, "<td class=\"diff\">0x00000001</td>"), 48u);
  EXPECT_NE(page.find("buffer out: 1048576 words, 1048576 differ; 1048528 words left out"),
            std::string::npos);
  EXPECT_NE(page.find("<td colspan=\"3\">1048528 words not shown</td>"), std::string::npos);
}

TEST(ReportHtml, ShowsCoverageWhenTheRunHasIt) {
  Report r = certified_report();
  EXPECT_EQ(report_html(r, kDigest).find("Random programs"), std::string::npos);
  r.random_programs = RandomProgramSummary{10, 2, 8, {{"bin", 3, 4}}, {"bin:u32 rotl"}};
  std::string page = report_html(r, kDigest);
  EXPECT_NE(page.find("<tr><td>bin</td><td>3</td><td>4</td></tr>"), std::string::npos) << page;
  EXPECT_NE(page.find("Not reached: bin:u32 rotl"), std::string::npos);
  EXPECT_NE(page.find("mutation score: "), std::string::npos);
}

TEST(CompareWords, KeepsContextAroundEachDifference) {
  std::vector<uint32_t> expected(100, 5);
  std::vector<uint32_t> observed = expected;
  observed[10] = 6;
  observed[50] = 6;
  auto compared = compare_words({{"b", bytes_of(expected)}}, {{"b", bytes_of(observed)}});
  ASSERT_EQ(compared.size(), 1u);
  EXPECT_EQ(compared[0].words, 100u);
  EXPECT_EQ(compared[0].differing, 2u);
  std::vector<uint64_t> shown;
  for (const WordRow& row : compared[0].rows) shown.push_back(row.word);
  EXPECT_EQ(shown, (std::vector<uint64_t>{7, 8, 9, 10, 11, 12, 13, 47, 48, 49, 50, 51, 52, 53}));
}

TEST(CompareWords, AShorterBufferDiffersPastItsEnd) {
  auto compared = compare_words({{"b", bytes_of({1, 2, 3})}}, {{"b", bytes_of({1, 2})}});
  ASSERT_EQ(compared.size(), 1u);
  EXPECT_EQ(compared[0].differing, 1u);
  const WordRow& last = compared[0].rows.back();
  EXPECT_EQ(last.word, 2u);
  EXPECT_EQ(last.expected, 3u);
  EXPECT_FALSE(last.observed.has_value());
  EXPECT_TRUE(compare_words({{"b", bytes_of({1})}}, {{"b", bytes_of({1})}}).empty());
}

}  // namespace
}  // namespace vyre::certify
