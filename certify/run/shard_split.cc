#include "certify/run/shard_split.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <optional>

namespace vyre::certify {
namespace {

std::optional<uint32_t> decimal(std::string_view text) {
  uint32_t value = 0;
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Result<ShardSpec> parse_shard_spec(std::string_view text) {
  const size_t slash = text.find('/');
  const auto index = decimal(text.substr(0, slash));
  const auto count =
      slash == std::string_view::npos ? std::nullopt : decimal(text.substr(slash + 1));
  if (!index || !count) {
    return Error{"--shard takes I/N, shard I of N counted from 1 (1/4 .. 4/4), not `" +
                 std::string(text) + "`"};
  }
  if (*count == 0 || *count > kMaxShards) {
    return Error{"--shard " + std::string(text) + ": the count N must be from 1 to " +
                 std::to_string(kMaxShards)};
  }
  if (*index == 0) {
    return Error{"--shard " + std::string(text) + ": shards count from 1, give 1/" +
                 std::to_string(*count) + " .. " + std::to_string(*count) + "/" +
                 std::to_string(*count)};
  }
  if (*index > *count) {
    return Error{"--shard " + std::string(text) + ": there is no shard " + std::to_string(*index) +
                 " of " + std::to_string(*count) + "; the index must be at most the count"};
  }
  return ShardSpec{*index, *count};
}

std::map<std::string, uint64_t> recorded_case_costs(const Report& earlier) {
  std::map<std::string, uint64_t> costs;
  for (const CaseResult& c : earlier.cases) {
    costs[c.id] = std::max<uint64_t>(1, c.compile_us + c.backend_us);
  }
  return costs;
}

std::vector<uint32_t> assign_shards(const std::vector<std::string>& ids,
                                    const std::map<std::string, uint64_t>& recorded,
                                    uint32_t count) {
  uint64_t known_sum = 0;
  uint64_t known_n = 0;
  for (const std::string& id : ids) {
    if (auto it = recorded.find(id); it != recorded.end()) {
      known_sum += it->second;
      ++known_n;
    }
  }
  const uint64_t unknown_cost = known_n == 0 ? 1 : (known_sum + known_n - 1) / known_n;
  std::vector<uint64_t> cost(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    auto it = recorded.find(ids[i]);
    cost[i] = it == recorded.end() ? unknown_cost : it->second;
  }
  std::vector<size_t> order(ids.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return cost[a] != cost[b] ? cost[a] > cost[b] : ids[a] < ids[b];
  });
  std::vector<uint64_t> load(count, 0);
  std::vector<uint32_t> shard(ids.size(), 0);
  for (size_t i : order) {
    // min_element takes the first of equal loads: the lower shard.
    const auto lightest = std::min_element(load.begin(), load.end());
    shard[i] = static_cast<uint32_t>(lightest - load.begin());
    *lightest += cost[i];
  }
  return shard;
}

std::vector<const SuiteCase*> cases_of_shard(const std::vector<const SuiteCase*>& chosen,
                                             ShardSpec spec,
                                             const std::map<std::string, uint64_t>& recorded) {
  std::vector<std::string> ids;
  for (const SuiteCase* c : chosen) ids.push_back(c->id);
  const std::vector<uint32_t> shard = assign_shards(ids, recorded, spec.count);
  std::vector<const SuiteCase*> mine;
  for (size_t i = 0; i < chosen.size(); ++i) {
    if (shard[i] + 1 == spec.index) mine.push_back(chosen[i]);
  }
  return mine;
}

}  // namespace vyre::certify
