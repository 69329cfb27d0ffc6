// What a plugin hands back is checked against the program before a byte is
// copied: every defect has its own message naming the buffer and sizes.
#include "backends/plugin/plugin_outputs.h"

#include <gtest/gtest.h>

namespace vyre::plugin {
namespace {

const std::vector<std::string> kReadWrite = {"a", "b"};
const BufferSet kInputs = {{"a", {1, 2, 3, 4}}, {"b", {}}, {"in", {9}}};
const uint8_t kFour[4] = {5, 6, 7, 8};

std::string defect(const std::vector<vyre_buffer>& outputs) {
  auto copied = copy_plugin_outputs(outputs.data(), static_cast<uint32_t>(outputs.size()),
                                    kReadWrite, kInputs);
  return copied.ok() ? "accepted" : copied.error().message;
}

TEST(PluginOutputs, ExactOutputsAreCopied) {
  std::vector<vyre_buffer> outputs = {{"b", nullptr, 0}, {"a", kFour, 4}};
  auto copied = copy_plugin_outputs(outputs.data(), 2, kReadWrite, kInputs);
  ASSERT_TRUE(copied.ok()) << copied.error().message;
  EXPECT_EQ(*copied, (BufferSet{{"a", {5, 6, 7, 8}}, {"b", {}}}));
}

TEST(PluginOutputs, EachDefectIsNamed) {
  struct Row {
    std::vector<vyre_buffer> outputs;
    std::string message;
  };
  const std::vector<Row> rows = {
      {{{"a", kFour, 3}, {"b", nullptr, 0}},
       "plugin output: buffer 'a' has 3 bytes, expected 4 (the size of its input)"},
      {{{"a", kFour, 4}}, "plugin output: missing read_write buffer 'b' (expected 0 bytes)"},
      {{},
       "plugin output: missing read_write buffers 'a' (expected 4 bytes), 'b' (expected 0 bytes)"},
      {{{"in", kFour, 1}, {"b", nullptr, 0}},
       "plugin output: buffer 'in' is not a read_write buffer of the program (read_write: 'a', "
       "'b')"},
      {{{"a", kFour, 4}, {"a", kFour, 4}}, "plugin output: buffer 'a' returned twice"},
      {{{nullptr, kFour, 4}}, "plugin output: output buffer #0 has a NULL name"},
      {{{"a", nullptr, 4}, {"b", nullptr, 0}},
       "plugin output: buffer 'a' has 4 bytes but a NULL data pointer"},
      {{{"a", kFour, 4}, {"b", nullptr, 0}, {"c", nullptr, 0}},
       "plugin output: 3 output buffers returned, but the program has 2 read_write buffers ('a', "
       "'b')"},
  };
  for (const Row& row : rows) EXPECT_EQ(defect(row.outputs), row.message);
}

TEST(PluginOutputs, NullArrayWithACountIsADefect) {
  auto copied = copy_plugin_outputs(nullptr, 1, kReadWrite, kInputs);
  ASSERT_FALSE(copied.ok());
  EXPECT_EQ(copied.error().message, "plugin output: 1 output buffers announced, but a NULL array");
}

TEST(PluginOutputs, OverlongNameIsADefect) {
  std::string name(kMaxOutputNameLength + 10, 'x');
  std::vector<vyre_buffer> outputs = {{name.c_str(), nullptr, 0}};
  EXPECT_EQ(defect(outputs), "plugin output: output buffer #0 has a name longer than 1024 bytes");
}

TEST(PluginOutputs, HugeClaimedSizeIsRejectedWithoutReading) {
  std::vector<vyre_buffer> outputs = {{"a", kFour, uint64_t{1} << 60}, {"b", nullptr, 0}};
  EXPECT_EQ(defect(outputs),
            "plugin output: buffer 'a' has 1152921504606846976 bytes, expected 4 (the size of its "
            "input)");
}

}  // namespace
}  // namespace vyre::plugin
