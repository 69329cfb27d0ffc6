// A repro's comparison line is read back, and a graph.bfs repro accepts any
// admissible output (findings in any row order, scratch as left) while
// catching a wrong one.
#include "certify/suite/replay_comparison.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "archetypes/graph/archetype_cases.h"
#include "archetypes/graph/bfs_layout.h"
#include "reference/interpreter.h"

namespace vyre::certify {
namespace {

TEST(ReplayComparison, IsNamedOnItsOwnCommentLine) {
  EXPECT_EQ(comparison_line(ReplayComparison::Bytes), "");
  EXPECT_EQ(comparison_line(ReplayComparison::GraphBfs), "# vyre-certify compare: graph.bfs");
  auto none = comparison_named_in("# a case\ncase \"x\" {}\n");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, ReplayComparison::Bytes);
  auto bfs = comparison_named_in("# vyre-certify repro of x\n# vyre-certify compare: graph.bfs\n");
  ASSERT_TRUE(bfs.ok());
  EXPECT_EQ(*bfs, ReplayComparison::GraphBfs);
  auto unknown = comparison_named_in("# vyre-certify compare: sideways\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("sideways"), std::string::npos);
}

TEST(ReplayComparison, GraphBfsAcceptsAnyRowOrderAndCatchesAWrongCount) {
  auto cases = archetypes::graph_cases();
  ASSERT_TRUE(cases.ok()) << cases.error().message;
  // The first archetype with at least two findings, so rows can be swapped.
  const std::string findings(archetypes::bfs::kFindings);
  const std::string count(archetypes::bfs::kFindingCount);
  for (const archetypes::GraphCase& gc : *cases) {
    TestCase repro = gc.test_case;
    repro.expected = gc.canonical_expected;
    auto ref = reference::run(repro.program, repro.inputs, repro.grid);
    ASSERT_TRUE(ref.ok()) << ref.error().message;
    BufferSet out = ref->outputs;
    const uint32_t written = out.at(count)[0];
    if (written < 2 || gc.dispatch.params.max_findings < 2) continue;
    EXPECT_EQ(graph_bfs_difference(repro, out), std::nullopt) << gc.test_case.name;
    // Rows 0 and 1 swapped (16 bytes each): the same finding set.
    ByteBuffer& rows = out.at(findings);
    std::swap_ranges(rows.begin(), rows.begin() + 16, rows.begin() + 16);
    EXPECT_EQ(graph_bfs_difference(repro, out), std::nullopt) << gc.test_case.name;
    out.at(count)[0] = static_cast<uint8_t>(written - 1);
    EXPECT_NE(graph_bfs_difference(repro, out), std::nullopt) << gc.test_case.name;
    return;
  }
  FAIL() << "no graph.bfs archetype has two findings";
}

}  // namespace
}  // namespace vyre::certify
