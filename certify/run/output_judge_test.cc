// The one output judge: byte comparison against hand-written buffers, and a
// graph.bfs expectation that accepts any admissible output (findings in any
// row order, scratch as left) while catching a wrong one.
#include "certify/run/output_judge.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "archetypes/graph/archetype_cases.h"
#include "archetypes/graph/bfs_layout.h"
#include "reference/interpreter.h"

namespace vyre::certify {
namespace {

TEST(OutputJudge, BytesWantEveryBufferAndNoOther) {
  TestCase c;
  c.expected = BufferSet{{"out", {1, 2, 3, 4}}};
  EXPECT_EQ(judge_outputs(c, {{"out", {1, 2, 3, 4}}}).difference, std::nullopt);
  EXPECT_NE(judge_outputs(c, {{"out", {1, 2, 3, 5}}}).difference, std::nullopt);
  EXPECT_NE(judge_outputs(c, {{"out", {1, 2, 3}}}).difference, std::nullopt);
  EXPECT_NE(judge_outputs(c, {}).difference, std::nullopt);
  EXPECT_NE(judge_outputs(c, {{"out", {1, 2, 3, 4}}, {"more", {}}}).difference, std::nullopt);
  // Byte comparison keeps no canonical copy of the outputs.
  EXPECT_FALSE(judge_outputs(c, {{"out", {1, 2, 3, 4}}}).canonical.has_value());
}

TEST(OutputJudge, ACaseWithoutExpectationCannotPass) {
  TestCase c;
  EXPECT_NE(judge_outputs(c, {}).difference, std::nullopt);
  c.comparison = Comparison::GraphBfs;
  EXPECT_NE(judge_outputs(c, {}).difference, std::nullopt);
}

TEST(OutputJudge, FirstDifferenceNamesTheWord) {
  const BufferSet want = {{"a", {1, 0, 0, 0, 2, 0, 0, 0}}};
  auto d = first_difference(want, {{"a", {1, 0, 0, 0, 3, 0, 0, 0}}});
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(describe(*d), "buffer `a` word 1: expected 0x00000002, observed 0x00000003");
  EXPECT_EQ(first_difference(want, want), std::nullopt);
  EXPECT_EQ(first_difference(want, {})->buffer, "a (missing)");
  EXPECT_EQ(listed_differences(want, want, 8), "");
  EXPECT_EQ(listed_differences(want, {{"a", {1, 0, 0, 0, 3, 0, 0, 0}}}, 8),
            "  a[1]: expected 0x00000002, observed 0x00000003\n");
}

TEST(OutputJudge, GraphBfsAcceptsAnyRowOrderAndCatchesAWrongCount) {
  auto cases = archetypes::graph_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  // The first archetype with at least two findings, so rows can be swapped.
  const std::string findings(archetypes::bfs::kFindings);
  const std::string count(archetypes::bfs::kFindingCount);
  for (const archetypes::GraphCase& gc : *cases) {
    TestCase repro = gc.test_case;
    repro.expected = gc.canonical_expected;
    repro.comparison = Comparison::GraphBfs;
    auto ref = reference::run(repro.program, repro.inputs, repro.grid);
    ASSERT_TRUE(ref.ok()) << ref.error().message;
    BufferSet out = ref->outputs;
    const uint32_t written = out.at(count)[0];
    if (written < 2 || gc.dispatch.params.max_findings < 2) continue;
    EXPECT_EQ(judge_outputs(repro, out).difference, std::nullopt) << gc.test_case.name;
    // Rows 0 and 1 swapped (16 bytes each): the same finding set.
    ByteBuffer& rows = out.at(findings);
    std::swap_ranges(rows.begin(), rows.begin() + 16, rows.begin() + 16);
    EXPECT_EQ(judge_outputs(repro, out).difference, std::nullopt) << gc.test_case.name;
    // Byte comparison of the same outputs fails: the comparison matters.
    TestCase bytes = repro;
    bytes.comparison = Comparison::Bytes;
    EXPECT_NE(judge_outputs(bytes, out).difference, std::nullopt) << gc.test_case.name;
    out.at(count)[0] = static_cast<uint8_t>(written - 1);
    EXPECT_NE(judge_outputs(repro, out).difference, std::nullopt) << gc.test_case.name;
    return;
  }
  FAIL() << "no graph.bfs archetype has two findings";
}

TEST(OutputJudge, GraphBfsJudgesEveryOtherExpectedBufferByteForByte) {
  auto cases = archetypes::graph_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  ASSERT_FALSE(cases->empty());
  const archetypes::GraphCase& gc = cases->front();
  TestCase c = gc.test_case;
  c.expected = gc.canonical_expected;
  c.comparison = Comparison::GraphBfs;
  auto ref = reference::run(c.program, c.inputs, c.grid);
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  BufferSet out = ref->outputs;
  ASSERT_EQ(judge_outputs(c, out).difference, std::nullopt);
  // Expecting 999 in a buffer of its own and observing 12345 passed before.
  (*c.expected)["extra"] = {0xE7, 0x03, 0, 0};
  out["extra"] = {0x39, 0x30, 0, 0};
  auto judged = judge_outputs(c, out);
  ASSERT_NE(judged.difference, std::nullopt);
  EXPECT_NE(judged.difference->find("buffer `extra` differs"), std::string::npos)
      << *judged.difference;
  out.erase("extra");
  EXPECT_NE(judge_outputs(c, out).difference, std::nullopt);
  out["extra"] = {0xE7, 0x03, 0, 0};
  EXPECT_EQ(judge_outputs(c, out).difference, std::nullopt);
}

}  // namespace
}  // namespace vyre::certify
