// --shard I/N: the spec's parsing, and the greedy split checked against
// assignments worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "certify/run/shard_split.h"

namespace vyre::certify {
namespace {

using Ids = std::vector<std::string>;
using Shards = std::vector<uint32_t>;

TEST(ShardSpec, ParsesIOfN) {
  auto two_of_four = parse_shard_spec("2/4");
  ASSERT_TRUE(two_of_four.ok());
  EXPECT_EQ(two_of_four->index, 2u);
  EXPECT_EQ(two_of_four->count, 4u);
  EXPECT_TRUE(parse_shard_spec("1/1").ok());
}

TEST(ShardSpec, NamesWhatIsWrong) {
  const std::pair<const char*, const char*> bad[] = {{"0/4", "shards count from 1"},
                                                     {"3/2", "no shard 3 of 2"},
                                                     {"0/0", "count N must be from 1"},
                                                     {"x/4", "takes I/N"},
                                                     {"4", "takes I/N"},
                                                     {"1/-2", "takes I/N"},
                                                     {"+1/2", "takes I/N"},
                                                     {"1/20000", "count N must be from 1"}};
  for (const auto& [text, why] : bad) {
    auto spec = parse_shard_spec(text);
    ASSERT_FALSE(spec.ok()) << text;
    EXPECT_NE(spec.error().message.find(why), std::string::npos) << spec.error().message;
  }
}

TEST(ShardSplit, CostliestFirstOntoTheLightestShard) {
  // a(10) -> 0; b(7) -> 1; c(5) -> 1 (7 < 10); d(4) -> 0 (10 < 12); e(3) -> 1 (12 < 14).
  const Ids ids = {"a", "b", "c", "d", "e"};
  const std::map<std::string, uint64_t> cost = {{"a", 10}, {"b", 7}, {"c", 5}, {"d", 4}, {"e", 3}};
  EXPECT_EQ(assign_shards(ids, cost, 2), (Shards{0, 1, 1, 0, 1}));
  // Three shards: a -> 0, b -> 1, c -> 2, d -> 2 (5 lightest), e -> 1 (7 < 9).
  EXPECT_EQ(assign_shards(ids, cost, 3), (Shards{0, 1, 2, 2, 1}));
}

TEST(ShardSplit, EqualCostsGoByIdAndShardsByCount) {
  // No recorded times: cost 1 each; sorted by id a, b, c, d onto 0, 1, 0, 1.
  EXPECT_EQ(assign_shards({"c", "a", "b", "d"}, {}, 2), (Shards{0, 0, 1, 1}));
}

TEST(ShardSplit, UnrecordedCasesCostTheMeanRoundedUp) {
  // Mean of 10 and 3 is 6.5 -> 7 for x: a(10) -> 0, x(7) -> 1, b(3) -> 1.
  EXPECT_EQ(assign_shards({"a", "b", "x"}, {{"a", 10}, {"b", 3}}, 2), (Shards{0, 1, 1}));
}

TEST(ShardSplit, TheSameWhateverOrderTheCasesComeIn) {
  Ids ids;
  std::map<std::string, uint64_t> cost;
  for (int i = 0; i < 40; ++i) {
    ids.push_back("L1/case" + std::to_string(i));
    cost[ids.back()] = static_cast<uint64_t>((i * 37) % 11 + 1);
  }
  const Shards forward = assign_shards(ids, cost, 4);
  Ids reversed(ids.rbegin(), ids.rend());
  const Shards backward = assign_shards(reversed, cost, 4);
  for (size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(forward[i], backward[ids.size() - 1 - i]);
  // Balanced: no shard carries more than the lightest plus the costliest case (11).
  std::vector<uint64_t> load(4, 0);
  for (size_t i = 0; i < ids.size(); ++i) load[forward[i]] += cost[ids[i]];
  EXPECT_LE(*std::max_element(load.begin(), load.end()),
            *std::min_element(load.begin(), load.end()) + 11);
}

TEST(ShardSplit, SelectionDigestIgnoresOrder) {
  EXPECT_EQ(selection_digest({"b", "a"}), selection_digest({"a", "b"}));
  // sha256("a\nb\n"), computed with `printf 'a\nb\n' | sha256sum`.
  EXPECT_EQ(selection_digest({"b", "a"}),
            "911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2");
}

}  // namespace
}  // namespace vyre::certify
