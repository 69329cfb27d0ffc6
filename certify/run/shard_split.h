// `--shard I/N`: a deterministic split of the selected cases into N shards,
// balanced by each case's recorded time, so that N processes (machines, CI
// jobs) that select the same cases each run one part and `merge` joins them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "certify/report/report.h"
#include "certify/report/selection_digest.h"
#include "certify/suite/suite_case.h"
#include "spec/support/result.h"

namespace vyre::certify {

/// Shard `index` of `count`, 1-based (1/4 .. 4/4).
struct ShardSpec {
  uint32_t index = 1;
  uint32_t count = 1;
};

/// Most shards one run may be split into.
inline constexpr uint32_t kMaxShards = 10000;

/// "I/N" as a ShardSpec; an Error names the problem (not two numbers,
/// index 0, index past the count, count 0 or past kMaxShards).
Result<ShardSpec> parse_shard_spec(std::string_view text);

/// Each case's cost for balancing: its compile plus backend time in
/// `earlier` (microseconds, at least 1).
std::map<std::string, uint64_t> recorded_case_costs(const Report& earlier);

/// The 0-based shard of each of `ids`: greedy, costliest case first (ties:
/// smaller id first) onto the least-loaded shard (ties: lower shard). A case
/// `recorded` has no cost for costs the mean recorded cost of `ids` (rounded
/// up); with no recorded cost at all every case costs 1, which splits by count.
std::vector<uint32_t> assign_shards(const std::vector<std::string>& ids,
                                    const std::map<std::string, uint64_t>& recorded,
                                    uint32_t count);

/// The cases of shard `spec` among `chosen` (assign_shards over their ids),
/// in `chosen`'s order.
std::vector<const SuiteCase*> cases_of_shard(const std::vector<const SuiteCase*>& chosen,
                                             ShardSpec spec,
                                             const std::map<std::string, uint64_t>& recorded);

}  // namespace vyre::certify
