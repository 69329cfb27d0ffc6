// L5/found (found_bug_cases.h): every driver-bug record of the source tree is
// in the catalogue, each case is the recorded program with its recorded
// expectation, and the reference interpreter meets that expectation with no
// violation, so a backend that fails one has the recorded bug, not the suite.
#include "certify/suite/found_bug_cases.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "certify/run/output_judge.h"
#include "certify/suite/catalog.h"
#include "reference/interpreter.h"

namespace vyre::certify {
namespace {

namespace fs = std::filesystem;

TEST(FoundBugCases, AnIdNamesTheRecordAndItsFile) {
  EXPECT_EQ(found_bug_case_id("pocl-3.1-x/repro.vyre"), "L5/found/pocl-3.1-x");
  EXPECT_EQ(found_bug_case_id("pocl-3.1-x/trigger-2026-7.vyre"),
            "L5/found/pocl-3.1-x/trigger-2026-7");
  EXPECT_EQ(found_bug_case_id("nvidia-580-y/variant-loop.vyre"),
            "L5/found/nvidia-580-y/variant-loop");
}

TEST(FoundBugCases, EveryRecordOfTheSourceTreeIsCompiledIn) {
  // What the embedding must hold, listed here from the folders themselves.
  std::set<std::string> on_disk;
  const fs::path records = fs::path(VYRE_SOURCE_DIR) / "reports" / "driver-bugs";
  for (const fs::directory_entry& record : fs::directory_iterator(records)) {
    if (!record.is_directory()) continue;
    const std::string name = record.path().filename().string();
    EXPECT_TRUE(fs::exists(record.path() / "repro.vyre")) << name << " has no repro.vyre";
    for (const fs::directory_entry& file : fs::directory_iterator(record.path())) {
      const std::string f = file.path().filename().string();
      const bool case_file =
          f == "repro.vyre" ||
          ((f.starts_with("trigger-") || f.starts_with("variant-")) && f.ends_with(".vyre"));
      if (case_file) on_disk.insert(name + "/" + f);
    }
  }
  std::set<std::string> embedded;
  for (const DriverBugFile& file : driver_bug_files()) embedded.insert(std::string(file.path));
  EXPECT_GE(on_disk.size(), 10u);
  EXPECT_EQ(embedded, on_disk);
}

TEST(FoundBugCases, EachIsTheRecordAsWrittenAndTheReferenceMeetsItsExpectation) {
  const std::vector<SuiteCase> cases = found_bug_cases();
  ASSERT_EQ(cases.size(), driver_bug_files().size());
  for (const SuiteCase& c : cases) {
    SCOPED_TRACE(c.id);
    EXPECT_EQ(c.level, Level::L5);
    const DispatchCase* d = dispatch_of(c);
    ASSERT_NE(d, nullptr) << "not parsed: the case is broken";
    EXPECT_TRUE(d->every_encoding);
    EXPECT_FALSE(d->reduce_failures);
    ASSERT_TRUE(d->poisonable.has_value());
    EXPECT_TRUE(d->poisonable->empty());
    const TestCase& tc = d->test_case;
    EXPECT_EQ(tc.encoding, Encoding::AsEmitted);
    ASSERT_TRUE(tc.expected.has_value()) << "a record's case carries its expectation";
    auto ref = reference::run(tc.program, tc.inputs, tc.grid, {});
    ASSERT_TRUE(ref.ok()) << ref.error().message;
    EXPECT_TRUE(ref->conforming()) << ref->violations.front().message;
    const Judgement j = judge_outputs(tc, ref->outputs);
    EXPECT_FALSE(j.difference) << *j.difference;
  }
}

TEST(FoundBugCases, AFileThatDoesNotParseOrLeavesItsExpectationToTheReferenceIsABrokenCase) {
  constexpr std::string_view kNoExpect = R"(case "x" {
  program {
    workgroup_size(1, 1, 1)
    buffer out: u32 read_write @0
    out[0] = 1
  }
  dispatch(1, 1, 1)
  input out: u32 [0]
  expect reference
})";
  const DriverBugFile files[] = {{"broken-1/repro.vyre", "case {"},
                                 {"broken-2/trigger-1.vyre", kNoExpect}};
  const std::vector<SuiteCase> cases = found_bug_cases(files);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "L5/found/broken-1");
  EXPECT_EQ(cases[1].id, "L5/found/broken-2/trigger-1");
  for (const SuiteCase& c : cases) {
    EXPECT_EQ(dispatch_of(c), nullptr) << c.id << " was built as a runnable case";
    EXPECT_EQ(c.oracle, "none: the case could not be built") << c.id;
  }
}

TEST(FoundBugCases, AreL5CasesOfTheCatalogue) {
  std::set<std::string> ids;
  for (const SuiteCase& c : found_bug_cases()) ids.insert(c.id);
  std::set<std::string> at_l5, at_l4;
  for (const SuiteCase& c : build_catalog({.seed = 1, .up_to = Level::L5, .random_programs = 1})) {
    if (c.id.starts_with("L5/found/")) at_l5.insert(c.id);
  }
  for (const SuiteCase& c : build_catalog({.seed = 1, .up_to = Level::L4})) {
    if (c.id.starts_with("L5/")) at_l4.insert(c.id);
  }
  EXPECT_EQ(at_l5, ids);
  EXPECT_TRUE(at_l4.empty());
}

}  // namespace
}  // namespace vyre::certify
