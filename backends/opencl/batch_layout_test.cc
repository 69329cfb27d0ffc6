// The packed layout of a batch's run (batch_layout.h): offsets at the
// device's alignment, outputs apart, the control word last, and the compare
// kernel's table with its masks and judged flags.
#include "backends/opencl/batch_layout.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace vyre::opencl {
namespace {

/// Outputs of 5 bytes, 400 bytes (scratch when `scratch`) and none.
std::vector<PackedOutput> three_outputs(bool scratch) {
  return {{0, 16, 5, false}, {0, 400, 400, scratch}, {0, 16, 0, false}};
}

TEST(BatchLayout, OutputsSitAtAlignedOffsetsAndTheControlWordLast) {
  const PackedRun run = pack_run(three_outputs(false), true, 128);
  ASSERT_EQ(run.outputs.size(), 3u);
  EXPECT_EQ(run.outputs[0].offset, 0u);
  EXPECT_EQ(run.outputs[1].offset, 128u);
  EXPECT_EQ(run.outputs[2].offset, 640u);
  ASSERT_TRUE(run.control_offset);
  EXPECT_EQ(*run.control_offset, 768u);
  EXPECT_EQ(run.bytes, 784u);
}

TEST(BatchLayout, WithoutAlignmentOrControlTheOutputsAreContiguous) {
  const PackedRun run = pack_run(three_outputs(false), false, 0);
  EXPECT_EQ(run.outputs[1].offset, 16u);
  EXPECT_EQ(run.outputs[2].offset, 416u);
  EXPECT_FALSE(run.control_offset);
  EXPECT_EQ(run.bytes, 432u);
}

TEST(BatchLayout, AnAlignmentOfNoWholeWordsKeepsOffsetsOnWords) {
  // 6 bytes: offsets at multiples of 12, both 6 and a word.
  const PackedRun run = pack_run(three_outputs(false), true, 6);
  EXPECT_EQ(run.outputs[1].offset, 24u);
  EXPECT_EQ(run.outputs[2].offset, 432u);
  EXPECT_EQ(*run.control_offset, 456u);
  EXPECT_EQ(run.bytes, 472u);
}

TEST(BatchLayout, NothingToPackIsStillABuffer) {
  EXPECT_EQ(pack_run({}, false, 128).bytes, 16u);
  const PackedRun control_only = pack_run({}, true, 128);
  EXPECT_EQ(*control_only.control_offset, 0u);
  EXPECT_EQ(control_only.bytes, 16u);
}

TEST(BatchLayout, TheTableHasWordOffsetsMasksAndJudgedFlags) {
  const PackedRun run = pack_run(three_outputs(true), true, 128);
  // The empty output has no entry.
  EXPECT_EQ(compare_table(run), (std::vector<uint64_t>{0, 2, 0xFF, 1, 32, 100, 0xFFFFFFFF, 0}));
  EXPECT_EQ(compare_table(pack_run(three_outputs(false), true, 128))[7], 1u);
  EXPECT_EQ(compared_words(run), 102u);
}

TEST(BatchLayout, TheLastWordMaskKeepsTheHostBytes) {
  EXPECT_EQ(last_word_mask(4), 0xFFFFFFFFu);
  EXPECT_EQ(last_word_mask(5), 0xFFu);
  EXPECT_EQ(last_word_mask(6), 0xFFFFu);
  EXPECT_EQ(last_word_mask(7), 0xFFFFFFu);
}

RC_GTEST_PROP(BatchLayout, OutputsAreAlignedApartAndInside, ()) {
  const uint64_t align = uint64_t{1} << *rc::gen::inRange(0, 13);
  const auto sizes = *rc::gen::container<std::vector<uint32_t>>(rc::gen::inRange(1u, 5000u));
  const bool control = *rc::gen::arbitrary<bool>();
  std::vector<PackedOutput> outputs;
  for (uint32_t size : sizes) outputs.push_back({0, std::max<uint64_t>(16, size * 4), size, false});
  const PackedRun run = pack_run(outputs, control, align);
  uint64_t end = 0;
  for (const PackedOutput& output : run.outputs) {
    RC_ASSERT(output.offset % std::max<uint64_t>(align, 4) == 0);
    RC_ASSERT(output.offset >= end);
    end = output.offset + output.device_bytes;
  }
  if (control) {
    RC_ASSERT(*run.control_offset >= end);
    end = *run.control_offset + kControlBytes;
  }
  RC_ASSERT(end <= run.bytes);
  RC_ASSERT(run.bytes % 4 == 0);
}

}  // namespace
}  // namespace vyre::opencl
