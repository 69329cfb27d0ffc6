// A fuzz hunt that compiles each batch's programs ahead, together, finds
// what a hunt compiling a few cases ahead finds: the same programs, cases,
// failures and distinct reduced findings for a seed; and it does compile the
// whole batch before the batch's first dispatch, once. A finding's README
// says what the backend gave, word for word, and the symptom its reduction
// kept.
#include "certify/run/fuzz_hunt.h"
#include "certify/run/scratch_dir_test_base.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>
#include <tuple>

#include "certify/run/marking_backend_for_tests.h"
#include "spec/ir/host_words.h"
#include "spec/text/text_format.h"

namespace vyre::certify {
namespace {

namespace fs = std::filesystem;

/// What a hunt found, comparable between hunts.
using Found = std::set<std::tuple<std::string, std::string, Verdict>>;

class FuzzHuntTest : public ScratchDirTest {
 protected:
  HuntResult hunt_with(MarkingBackend& backend, bool ahead, const std::string& out) {
    HuntOptions o = marking_hunt_options((dir_ / out).string(), 12);
    o.compile_batches_ahead = ahead;
    Result<HuntResult> hunted = hunt(backend, o);
    EXPECT_TRUE(hunted.ok()) << hunted.error().message;
    return hunted.ok() ? std::move(hunted).value() : HuntResult{};
  }

  static Found found(const HuntResult& r) {
    Found out;
    for (const HuntFinding& f : r.findings) out.emplace(f.hash, f.case_id, f.verdict);
    return out;
  }
};

TEST_F(FuzzHuntTest, CompilingBatchesAheadFindsWhatCompilingCasesAheadFinds) {
  MarkingBackend ahead_backend;
  const HuntResult ahead = hunt_with(ahead_backend, true, "ahead");
  MarkingBackend plain_backend;
  const HuntResult plain = hunt_with(plain_backend, false, "plain");
  EXPECT_EQ(ahead.programs, 12u);
  EXPECT_EQ(ahead.programs, plain.programs);
  EXPECT_EQ(ahead.discarded, plain.discarded);
  EXPECT_EQ(ahead.cases, plain.cases);
  EXPECT_EQ(ahead.failures, plain.failures);
  EXPECT_GT(ahead.failures, 0u) << "no program of the seed met the damage: the test tests nothing";
  EXPECT_EQ(found(ahead), found(plain));
  for (const HuntFinding& f : ahead.findings) {
    EXPECT_TRUE(fs::exists(fs::path(f.dir) / "original.vyre")) << f.dir;
  }
  // Ahead, the first batch (8 programs, every case and variant) is compiled
  // before anything runs, and the run takes those programs rather than
  // compiling them again (only a variant the reference finds invalid, which
  // the run would not compile, may add a compile).
  EXPECT_GE(ahead_backend.compiles_before_dispatch(), 8u);
  EXPECT_GE(ahead_backend.compiles(), plain_backend.compiles());
  EXPECT_LE(ahead_backend.compiles(), plain_backend.compiles() + plain_backend.compiles() / 10);
}

std::string file_text(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

TEST_F(FuzzHuntTest, AFindingsReadmeShowsTheWordsTheBackendGave) {
  MarkingBackend backend;
  const HuntResult result = hunt_with(backend, true, "readme");
  ASSERT_FALSE(result.findings.empty()) << "no program of the seed met the damage";
  for (const HuntFinding& f : result.findings) {
    const std::string readme = file_text(fs::path(f.dir) / "README.txt");
    auto original = parse_case(file_text(fs::path(f.dir) / "original.vyre"));
    ASSERT_TRUE(original.ok()) << f.dir;
    ASSERT_TRUE(original->expected.has_value()) << f.dir;
    // MarkingBackend flips bit 0 of byte 0 of every non-empty output: word
    // 0 of each came back as the reference's word 0 with bit 0 flipped.
    std::vector<std::string> damaged;
    for (const auto& [name, bytes] : *original->expected) {
      if (bytes.size() < 4) continue;
      const uint32_t want = to_words(bytes)[0];
      char line[160];
      std::snprintf(line, sizeof line, "  %s[0]: expected 0x%08X, observed 0x%08X\n", name.c_str(),
                    want, want ^ 1u);
      EXPECT_NE(readme.find(line), std::string::npos) << line << "in\n" << readme;
      damaged.push_back("`" + name + "`");
    }
    ASSERT_FALSE(damaged.empty()) << readme;
    if (fs::exists(fs::path(f.dir) / "reduced.vyre")) {
      // The reduction keeps every damaged buffer differing, so it can't drift.
      EXPECT_NE(readme.find("reduced keeping: fail: buffer"), std::string::npos) << readme;
      EXPECT_NE(readme.find("vyre-certify reduce " + f.dir + "/reduced.vyre --backend marking"),
                std::string::npos)
          << readme;
      for (const std::string& name : damaged) {
        EXPECT_NE(readme.find(name, readme.find("reduced keeping:")), std::string::npos)
            << name << " in\n"
            << readme;
      }
    }
    EXPECT_NE(readme.find("vyre-certify run " + f.dir + "/original.vyre"), std::string::npos);
    EXPECT_LT(readme.size(), 8192u) << readme;
  }
}

// SIGINT or SIGTERM (cmd_fuzz's RunInterruption sets the flag): a hunt of an
// hour stops once the flag is up, after the cases running finish, and
// returns what it found; one interrupted before it starts runs nothing.
TEST_F(FuzzHuntTest, AnInterruptedHuntStopsAndReturnsWhatItFound) {
  std::atomic<int> interrupted{SIGINT};
  MarkingBackend idle_backend;
  HuntOptions o = marking_hunt_options((dir_ / "before").string(), 0);
  o.seconds = 3600;
  o.interrupted = &interrupted;
  Result<HuntResult> before = hunt(idle_backend, o);
  ASSERT_TRUE(before.ok()) << before.error().message;
  EXPECT_EQ(before->programs, 0u);
  EXPECT_EQ(before->cases, 0u);
  EXPECT_EQ(idle_backend.dispatches(), 0u);

  interrupted = 0;
  MarkingBackend backend;
  o.out_dir = (dir_ / "during").string();
  std::atomic<bool> returned{false};
  std::thread signaller([&] {
    // Also ends if the hunt returns without a dispatch (the asserts say so).
    while (backend.dispatches() == 0 && !returned) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    interrupted = SIGTERM;
  });
  Result<HuntResult> during = hunt(backend, o);
  returned = true;
  signaller.join();
  ASSERT_TRUE(during.ok()) << during.error().message;
  EXPECT_GT(during->cases, 0u);
  // Only the first batch's programs were taken (8: kFirstBatch), and only
  // those with a case that ran are counted (each has three or more).
  EXPECT_LE(during->programs, 8u);
  EXPECT_LE(during->programs, during->cases);
  EXPECT_LT(during->cases, 3 * 8u) << "the interruption came after the whole batch";
  EXPECT_LT(during->seconds, 600.0);
}

}  // namespace
}  // namespace vyre::certify
