// The digest naming one selection of cases, which every shard of a sharded
// run records so that `merge` can tell shards of one run from strangers.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "certify/report/report_json.h"

namespace vyre::certify {

/// sha256_hex of `ids` sorted, each followed by '\n' (ShardInfo::selection_digest).
inline std::string selection_digest(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  std::string text;
  for (const std::string& id : ids) text += id + "\n";
  return sha256_hex(text);
}

}  // namespace vyre::certify
