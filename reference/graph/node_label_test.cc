#include "reference/graph/node_label.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

namespace vyre::graph {
namespace {

using ::testing::HasSubstr;

// Seed 001's label table, written out by hand.
TEST(NodeLabel, RoleValuesMatchTheSeedTable) {
  EXPECT_EQ(static_cast<uint32_t>(NodeRole::Normal), 0u);
  EXPECT_EQ(static_cast<uint32_t>(NodeRole::Source), 1u);
  EXPECT_EQ(static_cast<uint32_t>(NodeRole::Sink), 2u);
  EXPECT_EQ(static_cast<uint32_t>(NodeRole::SourceSink), 3u);
  EXPECT_EQ(static_cast<uint32_t>(NodeRole::Sanitizer), 4u);
  EXPECT_EQ(all_node_roles().size(), 5u);
  EXPECT_EQ(name_of(NodeRole::SourceSink), "source+sink");
}

TEST(NodeLabel, RoleLivesInBits16To23) {
  EXPECT_EQ(make_label(NodeRole::Sink, 0xBEEF), 0x0002BEEFu);
  EXPECT_EQ(role_bits(0xFF04ABCDu), 4u);
  EXPECT_EQ(role_bits(0x00FF0000u), 255u);
  EXPECT_EQ(role_from_bits(3), NodeRole::SourceSink);
  EXPECT_EQ(role_from_bits(5), std::nullopt);
  EXPECT_EQ(role_from_bits(255), std::nullopt);
}

TEST(NodeLabel, FindingAndExpansionBehaviour) {
  EXPECT_FALSE(reports_finding(NodeRole::Normal));
  EXPECT_FALSE(reports_finding(NodeRole::Source));
  EXPECT_TRUE(reports_finding(NodeRole::Sink));
  EXPECT_TRUE(reports_finding(NodeRole::SourceSink));
  EXPECT_FALSE(reports_finding(NodeRole::Sanitizer));
  EXPECT_FALSE(expands(NodeRole::Sanitizer));
  EXPECT_TRUE(expands(NodeRole::Sink));
}

TEST(NodeLabel, ValidLabelsWithHighAndLowMetadataPass) {
  const std::vector<uint32_t> labels = {0xFF00FFFFu, 0x00010000u, 0x12040000u};
  EXPECT_TRUE(validate_labels(labels).ok());
}

TEST(NodeLabel, EveryReservedRoleIsRejectedWithAnActionableError) {
  for (uint32_t role = 5; role <= 255; ++role) {
    const std::vector<uint32_t> labels = {0, make_label(NodeRole::Sink), (role << 16) | 7};
    auto r = validate_labels(labels);
    ASSERT_FALSE(r.ok()) << role;
    EXPECT_THAT(r.error().message, HasSubstr("node_labels[2]"));
    EXPECT_THAT(r.error().message, HasSubstr("has role " + std::to_string(role)));
    EXPECT_THAT(r.error().message, HasSubstr("valid roles are 0-4"));
    EXPECT_THAT(r.error().message, HasSubstr("Fix:"));
  }
}

}  // namespace
}  // namespace vyre::graph
