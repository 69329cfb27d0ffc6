#include "archetypes/graph/bfs_dispatch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "archetypes/graph/bfs_layout.h"
#include "reference/graph/node_label.h"
#include "spec/ir/host_words.h"

namespace vyre::archetypes::bfs {
namespace {

using graph::Finding;
using ::testing::HasSubstr;

graph::CsrGraph path3() {
  return *graph::try_to_csr(3, std::vector<graph::Edge>{{0, 1}, {1, 2}});
}

void expect_rejected(const Result<BfsDispatch>& d, const std::string& needle) {
  ASSERT_FALSE(d.ok()) << "expected an error containing: " << needle;
  EXPECT_THAT(d.error().message, HasSubstr(needle));
  EXPECT_THAT(d.error().message, HasSubstr("Fix:"));
}

TEST(PrepareBfs, BuildsEveryBufferAndTheGrid) {
  const std::vector<uint32_t> sources(65, 0);
  auto d = prepare_bfs(path3(), sources, {8, 3});
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->grid.workgroups, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(d->inputs.size(), kBindings.size());
  EXPECT_EQ(to_words(d->inputs.at("params")), (std::vector<uint32_t>{65, 3, 8, 3, 1}));
  EXPECT_EQ(d->inputs.at("findings").size(), 8u * 16);
  EXPECT_EQ(d->inputs.at("visited_set").size(), 65u * 4);
  EXPECT_EQ(d->inputs.at("bfs_queue").size(), 65u * 8192 * 4);
  auto none = prepare_bfs(path3(), {}, {8, 3});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->grid.workgroups, (std::array<uint32_t, 3>{1, 1, 1}));
}

TEST(PrepareBfs, HugeDeclaredNodeCountWithThreeOffsets) {
  graph::CsrGraph g = path3();
  g.node_count = UINT32_MAX;
  g.offsets = {0, 1, 2};
  const std::vector<uint32_t> sources = {0};
  expect_rejected(prepare_bfs(g, sources, {}), "offsets.len() == node_count + 1");
}

TEST(PrepareBfs, DecreasingOffsets) {
  graph::CsrGraph g = path3();
  g.offsets = {0, 2, 1, 2};
  const std::vector<uint32_t> sources = {0};
  expect_rejected(prepare_bfs(g, sources, {}), "offsets[2] = 1 is less than offsets[1] = 2");
}

TEST(PrepareBfs, OffsetsThatOverflowTheTargets) {
  graph::CsrGraph g = path3();
  g.offsets = {0, 1, UINT32_MAX, 2};
  const std::vector<uint32_t> sources = {0};
  expect_rejected(prepare_bfs(g, sources, {}), "points past the end of targets");
}

TEST(PrepareBfs, TargetPastTheEnd) {
  graph::CsrGraph g = path3();
  g.targets[1] = 3;
  const std::vector<uint32_t> sources = {0};
  expect_rejected(prepare_bfs(g, sources, {}), "targets[1] = 3");
}

TEST(PrepareBfs, ReservedRole) {
  graph::CsrGraph g = path3();
  g.node_data[2] = 0x00090000u;
  const std::vector<uint32_t> sources = {0};
  expect_rejected(prepare_bfs(g, sources, {}), "node_labels[2]");
}

TEST(PrepareBfs, SourceOutsideTheGraph) {
  const std::vector<uint32_t> sources = {0, 3};
  expect_rejected(prepare_bfs(path3(), sources, {}), "source_nodes[1] = 3");
}

TEST(PrepareBfs, MaxFindingsPastTheIndexSpace) {
  const std::vector<uint32_t> sources = {0};
  expect_rejected(prepare_bfs(path3(), sources, {(1u << 30) + 1, 3}), "max_findings = 1073741825");
}

TEST(PrepareBfs, QueueIndexSpaceOverflow) {
  // 2^19 + 1 sources x 8192 queue words passes 2^32.
  const std::vector<uint32_t> sources((1u << 19) + 1, 0);
  expect_rejected(prepare_bfs(path3(), sources, {}), "queue words, past 2^32");
}

TEST(PrepareBfs, VisitedIndexSpaceOverflow) {
  // 2^20 nodes (32768 words per source) x 131073 sources passes 2^32 words.
  auto g = graph::to_csr(1u << 20, {});
  ASSERT_TRUE(g.ok());
  const std::vector<uint32_t> sources(131073, 0);
  expect_rejected(prepare_bfs(*g, sources, {}), "visited_set would need 131073 sources");
}

TEST(PrepareBfs, HostStagingLimitRejectsBeforeAllocating) {
  // 100000 sources x 32 KiB of queue is about 3 GiB: refused, not allocated.
  const std::vector<uint32_t> sources(100000, 0);
  expect_rejected(prepare_bfs(path3(), sources, {}), "staged on the host");
}

TEST(PrepareBfs, BackendStorageLimitNamesTheBuffer) {
  Capabilities caps;
  caps.max_storage_buffer_bytes = 64 * 1024;
  const std::vector<uint32_t> two = {0, 1};
  // The queue needs 2 x 8192 x 4 = 65536 bytes: exactly the limit.
  EXPECT_TRUE(prepare_bfs(path3(), two, {16, 3}, &caps).ok());
  const std::vector<uint32_t> three = {0, 1, 2};
  expect_rejected(prepare_bfs(path3(), three, {16, 3}, &caps),
                  "bfs_queue needs 98304 bytes, past the backend's max_storage_buffer_bytes");
  expect_rejected(prepare_bfs(path3(), two, {5000, 3}, &caps), "findings needs 80000 bytes");
}

TEST(PrepareBfs, BackendWorkgroupCountLimit) {
  Capabilities caps;
  caps.max_workgroup_count = {1, 1, 1};
  const std::vector<uint32_t> sources(65, 0);
  expect_rejected(prepare_bfs(path3(), sources, {}, &caps), "max_workgroup_count.x = 1");
}

BufferSet outputs_with(std::vector<uint32_t> findings, uint32_t count, uint32_t overflow) {
  return {{"findings", to_bytes(findings)},
          {"finding_count", to_bytes(std::vector<uint32_t>{count})},
          {"queue_overflow", to_bytes(std::vector<uint32_t>{overflow})}};
}

TEST(ReadBfsOutputs, DecodesWrittenRowsInCanonicalOrder) {
  BfsDispatch d;
  d.params.max_findings = 3;
  auto out = read_bfs_outputs(outputs_with({5, 6, 1, 0, 1, 2, 3, 1, 9, 9, 9, 9}, 2, 4), d);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->findings, (std::vector<Finding>{{1, 2, 3, 1}, {5, 6, 1, 0}}));
  EXPECT_EQ(out->queue_overflow, 4u);
  EXPECT_FALSE(out->truncated);
  auto over = read_bfs_outputs(outputs_with({5, 6, 1, 0, 1, 2, 3, 1, 9, 9, 9, 9}, 7, 0), d);
  ASSERT_TRUE(over.ok());
  EXPECT_TRUE(over->truncated);
  EXPECT_EQ(over->findings.size(), 3u);
}

TEST(ReadBfsOutputs, MissingOrShortBuffersAreErrors) {
  BfsDispatch d;
  d.params.max_findings = 3;
  BufferSet missing = outputs_with(std::vector<uint32_t>(12), 0, 0);
  missing.erase("queue_overflow");
  auto a = read_bfs_outputs(missing, d);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, HasSubstr("queue_overflow is missing"));
  auto b = read_bfs_outputs(outputs_with(std::vector<uint32_t>(11), 0, 0), d);
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(b.error().message, HasSubstr("findings is only 44 bytes"));
}

TEST(CompareBfsOutputs, ExactBelowTheCapAndMembershipPastIt) {
  const std::vector<Finding> full = {{0, 1, 1, 0}, {0, 2, 1, 0}, {0, 3, 1, 0}};
  const BufferSet expected = expected_bfs_outputs(full, 0);
  auto observed = [](std::vector<Finding> rows, uint32_t count, uint32_t overflow) {
    return outputs_with(graph::findings_to_words(rows), count, overflow);
  };
  EXPECT_EQ(compare_bfs_outputs(expected, observed(full, 3, 0), 8), std::nullopt);
  EXPECT_THAT(*compare_bfs_outputs(expected, observed(full, 3, 1), 8),
              HasSubstr("queue_overflow is 1, expected 0"));
  EXPECT_THAT(*compare_bfs_outputs(expected, observed({full[0], full[1]}, 2, 0), 8),
              HasSubstr("finding_count is 2, expected 3"));
  EXPECT_THAT(*compare_bfs_outputs(expected, observed({full[0], {0, 2, 2, 0}, full[2]}, 3, 0), 8),
              HasSubstr("finding row 1"));
  // Cap 2: any two distinct members of the full set are right.
  EXPECT_EQ(compare_bfs_outputs(expected, observed({full[0], full[2]}, 3, 0), 2), std::nullopt);
  EXPECT_THAT(*compare_bfs_outputs(expected, observed({full[0], {0, 4, 1, 0}}, 3, 0), 2),
              HasSubstr("not in the full set"));
  EXPECT_THAT(*compare_bfs_outputs(expected, observed({full[0], full[0]}, 3, 0), 2),
              HasSubstr("written twice"));
  EXPECT_THAT(*compare_bfs_outputs(expected, observed({full[0]}, 3, 0), 2),
              HasSubstr("1 finding rows written, expected 2"));
  EXPECT_THAT(*compare_bfs_outputs(expected, BufferSet{}, 2), HasSubstr("missing"));
  BufferSet short_count = observed(full, 3, 0);
  short_count["finding_count"].pop_back();
  EXPECT_THAT(*compare_bfs_outputs(expected, short_count, 8), HasSubstr("not one word"));
}

TEST(HostWords, LittleEndianBothWays) {
  const std::vector<uint32_t> words = {0x04030201u, 0xDEADBEEFu};
  const ByteBuffer bytes = to_bytes(words);
  EXPECT_EQ(bytes, (ByteBuffer{0x01, 0x02, 0x03, 0x04, 0xEF, 0xBE, 0xAD, 0xDE}));
  ByteBuffer with_tail = bytes;
  with_tail.push_back(0x77);
  EXPECT_EQ(to_words(with_tail), words);
  EXPECT_EQ(zero_words(3), ByteBuffer(12, 0));
}

}  // namespace
}  // namespace vyre::archetypes::bfs
