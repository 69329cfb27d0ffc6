// Every row of rules.def has a negative case (triggers exactly that rule with
// its exact message) and a positive near-miss (valid): rule_cases_*.cc.
#include <gtest/gtest.h>

#include <set>

#include "spec/validate/rule_cases.h"

namespace vyre::testing {
namespace {

const std::vector<RuleCase>& all_cases() {
  static const std::vector<RuleCase> cases = [] {
    std::vector<RuleCase> out = structural_rule_cases();
    for (RuleCase& c : type_rule_cases()) out.push_back(std::move(c));
    return out;
  }();
  return cases;
}

std::vector<Diagnostic> run(const RuleCase& c, const Program& program) {
  return c.ops != nullptr ? validate(program, *c.ops) : validate(program);
}

class RuleCaseTest : public ::testing::TestWithParam<size_t> {
 protected:
  const RuleCase& rule_case() const { return all_cases()[GetParam()]; }
};

TEST_P(RuleCaseTest, NegativeTriggersExactlyThatRuleAndMessage) {
  const RuleCase& c = rule_case();
  const std::vector<Diagnostic> found = run(c, c.negative);
  ASSERT_EQ(found.size(), 1u) << c.name;
  EXPECT_EQ(found[0].rule, c.rule) << name_of(found[0].rule);
  EXPECT_EQ(found[0].message, c.message);
  EXPECT_EQ(rule_of(c.message_id), c.rule);
}

TEST_P(RuleCaseTest, PositiveNearMissIsValid) {
  const RuleCase& c = rule_case();
  const std::vector<Diagnostic> found = run(c, c.positive);
  EXPECT_TRUE(found.empty()) << c.name << ": " << found.front().message;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleCaseTest, ::testing::Range(size_t{0}, all_cases().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           return all_cases()[info.param].name;
                         });

TEST(RuleCaseCoverage, EveryRuleHasANegativeAndAPositiveCase) {
  std::set<RuleId> covered;
  for (const RuleCase& c : all_cases()) covered.insert(c.rule);
  for (RuleId id : all_rules())
    EXPECT_TRUE(covered.count(id) == 1) << name_of(id) << " has no case";
}

TEST(RuleCaseCoverage, EveryMessageHasACase) {
  std::set<MessageId> covered;
  for (const RuleCase& c : all_cases()) covered.insert(c.message_id);
  for (MessageId id : all_messages()) {
    EXPECT_TRUE(covered.count(id) == 1) << template_of(id) << " has no case";
  }
}

}  // namespace
}  // namespace vyre::testing
