// report.json written by write_reports reads back into the Report it was
// written from; a report that does not verify is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "certify/report/report_files.h"
#include "certify/report/report_read.h"

namespace vyre::certify {
namespace {

std::string fresh_dir(const std::string& name) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("report_read_" + name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

Report report_to_read_back() {
  Report r;
  r.suite_version = "9.9.9";
  r.backend = "vulkan";
  r.device.device_name = "llvmpipe";
  r.device.driver = "mesa 22";
  r.device.api = "Vulkan 1.3";
  r.device.max_workgroup_invocations = 1024;
  r.device.max_workgroup_size = {1024, 512, 64};
  r.device.max_workgroup_count = {65535, 65535, 65535};
  r.device.max_storage_buffer_bytes = uint64_t{1} << 31;
  r.seed = 7;
  r.runs = 3;
  r.filter = "L1/*";
  r.requested_level = Level::L5;
  r.started_utc = "2026-11-25T10:00:00Z";
  r.wall_us = 1234;
  r.phase_us = {{"compile", 100}, {"other", 1134}};
  CaseResult pass;
  pass.id = "L1/a";
  pass.level = Level::L1;
  pass.oracle = "spec table";
  pass.verdict = Verdict::Pass;
  pass.variants = 4;
  pass.runs_per_variant = 3;
  pass.dispatches = 12;
  pass.distinct_outputs = 1;
  pass.compile_us = 11;
  pass.backend_us = 22;
  pass.reference_us = 33;
  pass.per_dispatch_us = 1.5;
  CaseResult fail = pass;
  fail.id = "L5/b";
  fail.level = Level::L5;
  fail.verdict = Verdict::Fail;
  fail.message = "wrong bytes";
  Failure f;
  f.variant = "wg 64";
  f.detail = "d";
  f.inputs = {{"in", {1, 2, 3, 4}}};
  f.expected = {{"out", std::vector<uint8_t>(5000, 0)}};  // cut at 4096 bytes in the JSON
  f.observed = {{"out", {0xab, 0xcd}}};
  f.repro = "repro/L5_b.vyre";
  f.reduced_repro = "repro/L5_b_reduced.vyre";
  f.reduced_symptom = "fail: buffer `out` differs";
  f.first_difference = FirstDifference{"out", 0, 0, 0xcdab};
  fail.failure = f;
  r.cases = {pass, fail};
  r.random_programs = RandomProgramSummary{10, 2, 8, {{"bin", 3, 4}}, {"bin.add u32"}};
  r.shard = ShardInfo{2, 3, 9, "abc"};
  r.baseline = BaselineComparison{"old/report.json", {"L5/b"}, {}, {}, {}};
  judge(r);
  return r;
}

TEST(ReportRead, RoundTripsWhatWriteReportsWrote) {
  const Report written = report_to_read_back();
  const std::string dir = fresh_dir("round_trip");
  ASSERT_TRUE(write_reports(written, dir).ok());
  auto read = read_report_file(dir + "/report.json");
  ASSERT_TRUE(read.ok()) << read.error().message;
  const Report& r = read->report;
  EXPECT_EQ(read->digest.size(), 64u);
  EXPECT_EQ(r.suite_version, "9.9.9");
  EXPECT_EQ(r.backend, "vulkan");
  EXPECT_EQ(r.device.device_name, "llvmpipe");
  EXPECT_EQ(r.device.max_workgroup_size, (std::array<uint32_t, 3>{1024, 512, 64}));
  EXPECT_EQ(r.device.max_storage_buffer_bytes, uint64_t{1} << 31);
  EXPECT_EQ(r.seed, 7u);
  EXPECT_EQ(r.runs, 3u);
  EXPECT_EQ(r.filter, "L1/*");
  EXPECT_EQ(r.requested_level, Level::L5);
  EXPECT_EQ(r.started_utc, "2026-11-25T10:00:00Z");
  EXPECT_EQ(r.wall_us, 1234u);
  EXPECT_EQ(r.phase_us, written.phase_us);
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].id, "L1/a");
  EXPECT_EQ(r.cases[0].verdict, Verdict::Pass);
  EXPECT_EQ(r.cases[0].compile_us, 11u);
  EXPECT_EQ(r.cases[0].backend_us, 22u);
  EXPECT_EQ(r.cases[0].reference_us, 33u);
  EXPECT_DOUBLE_EQ(r.cases[0].per_dispatch_us, 1.5);
  EXPECT_EQ(r.cases[1].verdict, Verdict::Fail);
  EXPECT_EQ(r.cases[1].level, Level::L5);
  ASSERT_TRUE(r.cases[1].failure.has_value());
  const Failure& f = *r.cases[1].failure;
  EXPECT_EQ(f.inputs, written.cases[1].failure->inputs);
  EXPECT_EQ(f.observed, written.cases[1].failure->observed);
  EXPECT_EQ(f.expected.at("out").size(), 5000u);  // its stated size, the cut part zero
  EXPECT_EQ(f.reduced_repro, "repro/L5_b_reduced.vyre");
  EXPECT_EQ(f.reduced_symptom, "fail: buffer `out` differs");
  EXPECT_EQ(f.original_repro, "");
  ASSERT_TRUE(f.first_difference.has_value());
  EXPECT_EQ(f.first_difference->observed, 0xcdabu);
  ASSERT_TRUE(r.random_programs.has_value());
  EXPECT_EQ(r.random_programs->not_reached, std::vector<std::string>{"bin.add u32"});
  EXPECT_EQ(r.random_programs->categories[0].reached, 3u);
  ASSERT_TRUE(r.shard.has_value());
  EXPECT_EQ(r.shard->index, 2u);
  EXPECT_EQ(r.shard->selection_digest, "abc");
  ASSERT_TRUE(r.baseline.has_value());
  EXPECT_EQ(r.baseline->new_failures, std::vector<std::string>{"L5/b"});
  EXPECT_FALSE(r.certified);
  EXPECT_EQ(r.levels.size(), 5u);

  // Written again, it is the same file: nothing was lost on the way.
  const std::string again = fresh_dir("round_trip_again");
  ASSERT_TRUE(write_reports(r, again).ok());
  const auto text = [](const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::string first = text(dir + "/report.json");
  std::string second = text(again + "/report.json");
  EXPECT_EQ(first, second);
}

TEST(ReportRead, RefusesAnEditedReport) {
  const std::string dir = fresh_dir("edited");
  ASSERT_TRUE(write_reports(report_to_read_back(), dir).ok());
  std::ifstream in(dir + "/report.json");
  std::string text(std::istreambuf_iterator<char>(in), {});
  text.replace(text.find("\"seed\": 7"), 9, "\"seed\": 8");
  std::ofstream(dir + "/report.json") << text;
  auto read = read_report_file(dir + "/report.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("digest mismatch"), std::string::npos)
      << read.error().message;
}

TEST(ReportRead, RefusesABaselineThatHidesAFailure) {
  Report r = report_to_read_back();
  r.baseline->new_failures.clear();  // L5/b fails, yet is listed nowhere
  const std::string dir = fresh_dir("hidden_failure");
  ASSERT_TRUE(write_reports(r, dir).ok());
  auto read = read_report_file(dir + "/report.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("/baseline: the failing case `L5/b` is neither"),
            std::string::npos)
      << read.error().message;
}

TEST(ReportRead, RefusesAMissingFile) {
  auto read = read_report_file(fresh_dir("missing") + "/report.json");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find("not a readable file"), std::string::npos);
}

}  // namespace
}  // namespace vyre::certify
