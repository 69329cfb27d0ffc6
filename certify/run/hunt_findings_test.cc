// A hunt's findings, shared by its workers: a reduced form met by two
// workers at once (each with its own batch folder and failing program) is
// written once, by one of them; distinct forms each get a folder; a failure
// whose repro cannot be read back writes nothing.
#include "certify/run/hunt_findings.h"
#include "certify/run/scratch_dir_test_base.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <latch>
#include <string>
#include <thread>
#include <vector>

namespace vyre::certify {
namespace {

namespace fs = std::filesystem;

/// A case writing `value` to out[0]; `name` and `value` pick the form.
std::string case_writing(const std::string& name, uint32_t value) {
  return "case \"" + name +
         "\" {\n"
         "  program {\n"
         "    workgroup_size(1, 1, 1)\n"
         "    buffer out: u32 read_write @0\n"
         "    out[0] = " +
         std::to_string(value) +
         "\n"
         "  }\n"
         "  dispatch(1, 1, 1)\n"
         "  input out: u32 [1]\n"
         "  expect reference\n"
         "}\n";
}

void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string text_of(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

/// A failing case of a batch whose repros are written in `batch_dir`: the
/// failing program writes `failing_value`, its reduced form `reduced_value`.
CaseResult failing_case(const fs::path& batch_dir, const std::string& id, uint32_t failing_value,
                        uint32_t reduced_value) {
  write_file(batch_dir / "repro" / "failing.vyre", case_writing(id, failing_value));
  write_file(batch_dir / "repro" / "reduced.vyre", case_writing(id + "-reduced", reduced_value));
  CaseResult r;
  r.id = id;
  r.verdict = Verdict::Fail;
  r.message = "buffer `out` differs";
  Failure f;
  f.variant = "workgroup size 1";
  f.repro = "repro/failing.vyre";
  f.reduced_repro = "repro/reduced.vyre";
  f.reduced_symptom = "fail: buffer `out` differs";
  r.failure = f;
  return r;
}

class FuzzHuntFindingsTest : public ScratchDirTest {
 protected:
  std::vector<fs::path> folders(const fs::path& out) const {
    std::vector<fs::path> found;
    if (!fs::exists(out)) return found;
    for (const auto& entry : fs::directory_iterator(out)) found.push_back(entry.path());
    return found;
  }
};

TEST_F(FuzzHuntFindingsTest, AFormTwoWorkersMeetAtOnceIsWrittenOnce) {
  // Many rounds, so that the two records overlap in every way they can.
  for (int round = 0; round < 50; ++round) {
    const fs::path out = dir_ / ("out" + std::to_string(round));
    HuntFindings findings(out, 7, "marking");
    // Two workers' batches, different failing programs, one reduced form.
    const CaseResult a = failing_case(dir_ / "batch-1", "fuzz/7/3", 3, 1);
    const CaseResult b = failing_case(dir_ / "batch-2", "fuzz/7/40", 40, 1);
    std::latch start(2);
    bool recorded[2] = {false, false};
    std::thread other([&] {
      start.arrive_and_wait();
      recorded[1] = findings.record(b, dir_ / "batch-2");
    });
    start.arrive_and_wait();
    recorded[0] = findings.record(a, dir_ / "batch-1");
    other.join();
    ASSERT_NE(recorded[0], recorded[1]) << "round " << round << ": written by both or neither";
    ASSERT_EQ(findings.count(), 1u);
    const std::vector<fs::path> written = folders(out);
    ASSERT_EQ(written.size(), 1u) << "round " << round;
    const HuntFinding f = findings.findings().at(0);
    EXPECT_EQ(written[0].string(), f.dir);
    EXPECT_EQ(f.case_id, recorded[0] ? "fuzz/7/3" : "fuzz/7/40");
    // The folder holds the failing program of the worker that wrote it.
    EXPECT_NE(text_of(written[0] / "original.vyre")
                  .find("out[0] = " + std::string(recorded[0] ? "3" : "40")),
              std::string::npos);
    EXPECT_NE(text_of(written[0] / "reduced.vyre").find("out[0] = 1"), std::string::npos);
    EXPECT_NE(text_of(written[0] / "README.txt").find("case: " + f.case_id), std::string::npos);
  }
}

TEST_F(FuzzHuntFindingsTest, DistinctFormsEachGetAFolder) {
  const fs::path out = dir_ / "out";
  HuntFindings findings(out, 7, "marking");
  EXPECT_TRUE(findings.record(failing_case(dir_ / "batch-1", "fuzz/7/1", 10, 1), dir_ / "batch-1"));
  EXPECT_TRUE(findings.record(failing_case(dir_ / "batch-2", "fuzz/7/2", 10, 2), dir_ / "batch-2"));
  // The first form again, from another program: a duplicate.
  EXPECT_FALSE(
      findings.record(failing_case(dir_ / "batch-1", "fuzz/7/3", 30, 1), dir_ / "batch-1"));
  EXPECT_EQ(findings.count(), 2u);
  EXPECT_EQ(folders(out).size(), 2u);
}

TEST_F(FuzzHuntFindingsTest, AFailureWhoseReproCannotBeReadWritesNothing) {
  const fs::path out = dir_ / "out";
  HuntFindings findings(out, 7, "marking");
  CaseResult r = failing_case(dir_ / "batch", "fuzz/7/1", 10, 1);
  write_file(dir_ / "batch" / "repro" / "failing.vyre", "case \"broken\" {");
  EXPECT_FALSE(findings.record(r, dir_ / "batch"));
  r.failure.reset();
  EXPECT_FALSE(findings.record(r, dir_ / "batch"));
  EXPECT_EQ(findings.count(), 0u);
  EXPECT_TRUE(folders(out).empty());
}

}  // namespace
}  // namespace vyre::certify
