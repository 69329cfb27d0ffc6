// The rule table (rules.def), the message table (messages.def) and RULES.md
// agree with each other and with seed 004.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "spec/validate/messages.h"
#include "spec/validate/rule_id.h"

namespace vyre {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string rule_number(size_t n) {
  std::string digits = std::to_string(n);
  return "V" + std::string(3 - std::min<size_t>(3, digits.size()), '0') + digits;
}

/// Rule number of an id: 25 for "V025".
int number_of(RuleId id) {
  return std::stoi(std::string(name_of(id).substr(1)));
}

TEST(RuleTable, IdsRunFromV001WithoutGapsInTableOrder) {
  ASSERT_EQ(all_rules().size(), 40u);
  for (size_t i = 0; i < all_rules().size(); ++i) {
    EXPECT_EQ(name_of(all_rules()[i]), rule_number(i + 1));
    EXPECT_EQ(static_cast<size_t>(all_rules()[i]), i);
  }
}

TEST(RuleTable, SummariesArePresentAndDistinct) {
  std::set<std::string_view> seen;
  for (RuleId id : all_rules()) {
    EXPECT_FALSE(summary_of(id).empty()) << name_of(id);
    EXPECT_TRUE(seen.insert(summary_of(id)).second) << name_of(id);
  }
}

TEST(MessageTable, EveryMessageHasTheSeedForm) {
  const std::string_view prefix = "vyre IR validation: ";
  for (MessageId id : all_messages()) {
    const std::string_view text = template_of(id);
    EXPECT_TRUE(text.starts_with(prefix)) << text;
    EXPECT_NE(text.find(". Fix: "), std::string_view::npos) << text;
    EXPECT_TRUE(text.ends_with(".")) << text;
  }
}

TEST(MessageTable, V025SharesV009TextUnderItsOwnId) {
  EXPECT_EQ(template_of(MessageId::AtomicOnWorkgroup), template_of(MessageId::AtomicNotReadWrite));
  EXPECT_EQ(rule_of(MessageId::AtomicOnWorkgroup), RuleId::V025);
  EXPECT_EQ(rule_of(MessageId::AtomicNotReadWrite), RuleId::V009);
}

TEST(MessageTable, RenderFillsEveryArgumentAndRepeatsOfIt) {
  EXPECT_EQ(render(MessageId::UndeclaredVariable, {{"name", "count"}}),
            "vyre IR validation: reference to undeclared variable `count`. Fix: add `let count = "
            "...;` before this use.");
  EXPECT_EQ(render(MessageId::DuplicateBinding, {{"name", "b"}, {"binding", "7"}}),
            "vyre IR validation: duplicate binding slot 7 (buffer `b`). Fix: each buffer must "
            "have a unique binding.");
}

TEST(RulesDoc, NamesEveryRuleWithItsSummaryAndEveryMessage) {
  const std::string doc =
      read_text(std::filesystem::path(VYRE_SOURCE_DIR) / "spec/validate/RULES.md");
  ASSERT_FALSE(doc.empty()) << "RULES.md not found";
  for (RuleId id : all_rules()) {
    const std::string heading =
        "### " + std::string(name_of(id)) + ": " + std::string(summary_of(id)) + "\n";
    EXPECT_NE(doc.find(heading), std::string::npos) << "RULES.md lacks: " << heading;
  }
  for (MessageId id : all_messages()) {
    EXPECT_NE(doc.find(template_of(id)), std::string::npos)
        << "RULES.md lacks: " << template_of(id);
  }
}

// The seed pages sit beside the checkout (../shared/seeds); every developer
// and CI machine has them.
TEST(SeedAgreement, SeedRulesKeepTheSeedTextCharacterForCharacter) {
  const std::filesystem::path seed =
      std::filesystem::path(VYRE_SEEDS_DIR) / "004_3572caad57990d88.txt";
  if (!std::filesystem::exists(seed)) GTEST_SKIP() << seed << " is not there";
  const std::string text = read_text(seed);
  for (MessageId id : all_messages()) {
    const bool from_seed = number_of(rule_of(id)) <= 25;
    const bool in_seed = text.find(template_of(id)) != std::string::npos;
    EXPECT_EQ(in_seed, from_seed) << template_of(id);
  }
  for (RuleId id : all_rules()) {
    const bool heading = text.find("## " + std::string(name_of(id)) + ":") != std::string::npos;
    EXPECT_EQ(heading, number_of(id) <= 25) << name_of(id);
  }
}

// The other direction: every message the seed gives a rule is in the table
// under that rule, so a message dropped from messages.def (or moved to the
// wrong rule, as V025's copy of V009's text could be) is caught.
TEST(SeedAgreement, EverySeedMessageIsInTheTableUnderItsRule) {
  const std::filesystem::path seed =
      std::filesystem::path(VYRE_SEEDS_DIR) / "004_3572caad57990d88.txt";
  if (!std::filesystem::exists(seed)) GTEST_SKIP() << seed << " is not there";
  std::istringstream lines(read_text(seed));
  std::string line;
  std::string section;  // "V001" ... of the `## VNNN:` heading above the line
  size_t seed_messages = 0;
  while (std::getline(lines, line)) {
    if (line.starts_with("## V") && line.size() > 7 && line[7] == ':') section = line.substr(3, 4);
    if (!line.starts_with("vyre IR validation: ") || line.find("<problem>") != std::string::npos) {
      continue;
    }
    ++seed_messages;
    bool in_table = false;
    for (MessageId id : all_messages()) {
      in_table = in_table || (template_of(id) == line && name_of(rule_of(id)) == section);
    }
    EXPECT_TRUE(in_table) << section << ": " << line;
  }
  // 25 rules, V004 with four messages and V006 with two: 29 (hand count).
  EXPECT_EQ(seed_messages, 29u);
}

}  // namespace
}  // namespace vyre
